// Command fidelity measures gomb against the real peer programs, as the
// user has them installed (peers.go: where it finds them), on the
// same machine, MPI library and launcher: IMB-MPI1 against gomb imb, the
// OSU Micro-Benchmarks against gomb osu, mpi-comm-bench against gomb ring.
// Both programs run the same jobs under the same launcher line, ABBA
// interleaved over rounds (peer, gomb, gomb, peer; then the other way
// round), and their text output is read by gomb's own importer. It prints,
// per benchmark, process count and size, the median over rounds of the
// ratio gomb/peer of the reported time (bandwidths count as inverse
// times, so above 1 always means gomb reports slower), the interquartile
// range of those ratios, and beside it the peer's own launch-to-launch
// spread; then the peak RSS of a rank and the wall time of each job. It is
// a benchmark, not a test: 'make bench-fidelity' runs it on this machine
// with both MPIs, and scripts/vs-peers.sh points it at a user's own peers
// and launcher.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

const usage = `Usage: go run ./tools/fidelity -launch 'LAUNCHER -np {np} ...' [peers] [flags]
       go run ./tools/fidelity -peers DIR -find NAME

The peers are installed programs, built for the launcher's MPI; this tool
builds none. -peers DIR finds each by its installed name below DIR
(IMB-MPI1, IMB-NBC, ..., osu_latency, ..., mpi_comm_bench: a folder of
links to installed prefixes, Spack's, HPC-X's, Intel MPI's; see
docs/fidelity.md); a flag of its own names one elsewhere. A peer asked for
and not there skips its jobs with one line; the others run.

Peers:
  -peers DIR    folder below which every peer not named by its own flag is
                looked up (a peer's flag given empty, -imb-p2p '', leaves
                that peer out)
  -imb PATH     IMB-MPI1
  -imb-nbc PATH IMB-NBC
  -imb-mpi4 PATH IMB-MPI4
  -imb-ext PATH IMB-EXT
  -imb-rma PATH IMB-RMA
  -imb-p2p PATH IMB-P2P
  -imb-mt PATH  IMB-MT (one thread a rank unless -imb-mt-args says
                -thread_level multiple)
  -imb-io PATH  IMB-IO (both programs write their files in the work
                directory's io/)
  -osu DIR      folder below which the OSU tests are (osu_latency, ...)
  -osu74 DIR    folder below which OSU 7.4's tests gomb adds are (the
                persistent collectives, -osu74-tests; the fan tests,
                -osu74-fan-tests, run under -fan-launch across hosts)
  -mcb PATH     mpi-comm-bench's mpi_comm_bench

Flags:
`

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// cli is the command: it parses args, plans the jobs and measures, and
// returns the exit status: 2 for bad arguments (one line on stderr), 1
// when a launch or the report fails, 0 otherwise, also when every peer
// asked for is missing (each skipped with one line).
func cli(args []string, stdout, stderr io.Writer) int {
	cfg := config{}
	fs, from, find := newFlagSet(&cfg)
	if err := cfg.parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, usage)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "fidelity: %v (-h lists the flags)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fidelity: unexpected argument %q (peers are named by flags; -h lists them)\n", fs.Arg(0))
		return 2
	}
	if cfg.nice < -20 || cfg.nice > 19 {
		fmt.Fprintf(stderr, "fidelity: -nice must be between -20 and 19, not %d\n", cfg.nice)
		return 2
	}
	if *find != "" {
		if cfg.peers == "" {
			fmt.Fprintln(stderr, "fidelity: -find needs -peers DIR")
			return 2
		}
		p, err := findPeer(cfg.peers, *find)
		if err != nil {
			fmt.Fprintln(stderr, "fidelity:", err)
			return 1
		}
		fmt.Fprintln(stdout, p)
		return 0
	}
	if *from != "" {
		if err := reprint(&cfg, *from, stdout); err != nil {
			fmt.Fprintln(stderr, "fidelity:", err)
			return 1
		}
		return 0
	}
	if cfg.launch == "" || !strings.Contains(cfg.launch, "{np}") {
		fmt.Fprintln(stderr, "fidelity: -launch must give the launcher line with {np} for the process count")
		return 2
	}
	if cfg.label == "" {
		cfg.label = strings.Fields(cfg.launch)[0]
	}
	// IMB-IO's job runs in a directory of its own: every path absolute
	for _, p := range []*string{&cfg.out, &cfg.gomb} {
		*p, _ = filepath.Abs(*p)
	}
	if !cfg.asked() {
		fmt.Fprintln(stderr, "fidelity: no peer given (-peers, -imb, -imb-nbc, -imb-mpi4, -imb-ext, -imb-rma, -imb-p2p, -imb-mt, -imb-io, -osu, -osu74, -mcb)")
		return 2
	}
	jobs, skips := cfg.jobs()
	for _, s := range skips {
		fmt.Fprintln(stderr, "fidelity: skip", s)
	}
	if len(jobs) == 0 {
		return 0 // every peer asked for is missing: nothing to measure
	}
	if err := measure(&cfg, jobs, stdout); err != nil {
		fmt.Fprintln(stderr, "fidelity:", err)
		return 1
	}
	return 0
}

// parse parses args into c, noting the peer flags given empty: those
// peers are left out, not looked up below -peers.
func (c *config) parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	c.off = map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if f.Value.String() == "" {
			c.off[f.Name] = true
		}
	})
	return err
}

// newFlagSet declares the flags into cfg, with -from and -find beside.
func newFlagSet(cfg *config) (fs *flag.FlagSet, from, find *string) {
	fs = flag.NewFlagSet("fidelity", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.label, "mpi", "", "a name for the MPI library in the report (default: the launcher's first word)")
	fs.StringVar(&cfg.launch, "launch", "", "launcher line; {np} is replaced by the process count")
	fs.StringVar(&cfg.gomb, "gomb", "bin/gomb", "gomb binary built for the launcher's MPI")
	fs.StringVar(&cfg.peers, "peers", "", "folder of installed peers, each found below it by its installed name")
	fs.StringVar(&cfg.imb, "imb", "", "IMB-MPI1 binary")
	cfg.suites = []*suiteJob{ // IMB's other suites: a job each, at 2 processes (IMB-P2P's stencil at 4)
		{sub: "imb-nbc", args: "-msglog 0:16 Ibcast Ibcast_pure", np: 2},
		{sub: "imb-mpi4", args: "-msglog 0:16 Allreduce_persist Allreduce_persist_pure", np: 2},
		{sub: "imb-ext", args: "-msglog 0:16 Window Unidir_Put", np: 2},
		{sub: "imb-rma", args: "-msglog 0:16 Unidir_put", np: 2},
		{sub: "imb-p2p", args: "-msglog 16 -iter 10000,100 -pause 10000 Stencil2D PingPong", np: 4},
		{sub: "imb-mt", args: "-count 1,16,256,4096,16384 -repeat 5000 -warmup 500 PingPongMT", np: 2},
		{sub: "imb-io", args: "-msglog 0:16 P_Write_Indv", np: 2},
	}
	for _, sj := range cfg.suites {
		prog := strings.ToUpper(sj.sub)
		fs.StringVar(&sj.bin, sj.sub, "", prog+" binary")
		fs.StringVar(&sj.args, sj.sub+"-args", sj.args, fmt.Sprintf("%s's job at %d processes: flags and benchmarks", prog, sj.np))
	}
	fs.StringVar(&cfg.osu, "osu", "", "folder of the OSU tests")
	fs.StringVar(&cfg.osu74, "osu74", "", "folder of OSU 7.4's tests (the persistent collectives, the fan tests)")
	fs.StringVar(&cfg.osu74Tests, "osu74-tests", "allreduce_persistent", "OSU 7.4 tests, from -osu74")
	fs.StringVar(&cfg.fanLaunch, "fan-launch", "", "launcher line of the fan tests ({np}), whose ranks must span two or more hosts (the testbed's: scripts/testbed.sh launch ...); empty: no fan job")
	fs.StringVar(&cfg.fanTests, "osu74-fan-tests", "bw_fan_in", "OSU 7.4 fan tests, from -osu74, under -fan-launch")
	fs.IntVar(&cfg.fanNP, "fan-np", 2, "processes of the fan jobs")
	fs.IntVar(&cfg.osuNP, "osu-np", 2, "processes of the OSU jobs (the neighbourhood collectives need 3 or more; the point-to-point tests 2)")
	fs.StringVar(&cfg.mcb, "mcb", "", "mpi-comm-bench binary")
	fs.IntVar(&cfg.rounds, "rounds", 5, "ABBA rounds (each program runs every job twice a round)")
	fs.BoolVar(&cfg.imbDefault, "imb-default", true, "run IMB's default list at 2 processes (false: only the other IMB jobs)")
	fs.StringVar(&cfg.imbArgs, "imb-args", "", "extra IMB flags for both programs, in every IMB job (default: IMB's defaults)")
	fs.StringVar(&cfg.imbList, "imb-list", "", "benchmarks of the job of IMB's default list, comma-separated (default: the whole list)")
	fs.StringVar(&cfg.imbColl, "imb-np4", "Allreduce,Reduce,Reduce_scatter,Reduce_scatter_block,Allgather,Allgatherv,Gather,Gatherv,Scatter,Scatterv,Alltoall,Alltoallv,Bcast,Barrier",
		"IMB benchmarks also run at 4 processes (-npmin 4); empty: none")
	fs.StringVar(&cfg.np4Args, "imb-np4-args", "-msglog 0:16", "extra IMB flags of the 4-process job (4 ranks on a small node are oversubscribed)")
	fs.StringVar(&cfg.extraArgs, "imb-extra-args", "-msglog 0:16", "extra IMB flags of the non-default benchmarks (Uniband and Biband run long at large sizes)")
	fs.StringVar(&cfg.extra, "imb-extra", "PingPongSpecificSource,PingPongAnySource,PingPingSpecificSource,PingPingAnySource,Uniband,Biband",
		"IMB's non-default benchmarks, run in a job of their own; empty: none")
	fs.StringVar(&cfg.imbSeq, "imb-seq", seqDefault,
		"IMB sequences as users run them: argument lists separated by ';', each a job of its own at 2 processes (a lengths file: -msglen with {out} for the work directory); empty: none")
	fs.StringVar(&cfg.osuTests, "osu-tests", "latency,latency_mt,bw,bibw,mbw_mr,multi_lat,put_latency,get_latency,acc_latency,allreduce,bcast,alltoall,barrier,iallreduce",
		"OSU tests")
	fs.StringVar(&cfg.osuArgs, "osu-args", "", "extra OSU flags for both programs (e.g. '-m 1:65536')")
	// on a small node OSU's default 1:2 threads oversubscribe the cores
	// and measure the scheduler: one thread a side by default
	fs.StringVar(&cfg.mtArgs, "osu-mt-args", "-t 1:1", "extra flags of latency_mt, after -osu-args")
	fs.IntVar(&cfg.ringSamples, "ring-samples", 30, "ring samples per launch (the first, cold one is left out)")
	fs.StringVar(&cfg.only, "only", "", "run only these peers' jobs, comma-separated: imb-mpi1, imb-nbc, imb-mpi4, imb-ext, imb-rma, imb-p2p, imb-mt, imb-io (imb: all of IMB's), osu, ring")
	fs.StringVar(&cfg.out, "out", "out/fidelity", "work directory: every output, the raw values (values.json)")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "limit per launch")
	fs.IntVar(&cfg.nice, "nice", 0, "run every launch in a session and scheduling group (Linux autogroup) of its own at this nice value, -20 to 19, so that other sessions' processes on a shared machine do not take its ranks' cores (0: launch as is; a negative value needs root)")
	from = fs.String("from", "", "print the report of an earlier run's values.json (measures nothing)")
	find = fs.String("find", "", "print the path of this program found below -peers (measures nothing; exit 1 when not there)")
	return fs, from, find
}

type config struct {
	label, launch, gomb, peers, imb, osu, mcb  string
	osu74, osu74Tests                          string
	fanLaunch, fanTests                        string
	fanNP, osuNP                               int
	suites                                     []*suiteJob
	rounds, ringSamples                        int
	imbArgs, imbList, imbColl, osuTests, extra string
	imbSeq                                     string
	imbDefault                                 bool
	np4Args, extraArgs                         string
	osuArgs, only, out                         string
	mtArgs                                     string
	timeout                                    time.Duration
	nice                                       int
	off                                        map[string]bool // flags given empty
}

// suiteJob is the job of one of IMB's other suites: the peer program (the
// flag of the gomb subcommand's name, -imb-nbc) and its arguments.
type suiteJob struct {
	sub, bin, args string
	np             int
}

// job is one launch shape that both programs run.
type job struct {
	name   string   // short name for files and the wall-time table
	np     int      // processes
	peer   []string // the peer's program and arguments
	gomb   []string // gomb's
	format string   // what the importer should expect ("imb", "osu", "ring")
	dir    string   // where both run ("": the current directory)
	launch string   // the launcher line, if not the -launch one
	// peerNoFinalize: the peer ends without MPI_Finalize, and the launcher
	// may say so with its exit status; its table counts if complete
	peerNoFinalize bool
	// interrupt: the peer runs until SIGINT (mpi-comm-bench); stop it after
	// this long.
	interrupt time.Duration
}

// wants: -only names the peer's jobs: imb-mpi1, imb-nbc, ... (imb: all
// of IMB's), osu, ring.
func (c *config) wants(peer string) bool {
	if c.only == "" {
		return true
	}
	for _, s := range strings.Split(c.only, ",") {
		s = strings.TrimSpace(s)
		if s == peer || s == "imb" && strings.HasPrefix(peer, "imb-") {
			return true
		}
	}
	return false
}

// seqDefault: subsets and size lists as users run them. The first is the
// case where IMB carried from one benchmark to the next what gomb did not:
// every benchmark's communicator, whose structures on the C heap decide
// whether Open MPI's per-call temporaries of Reduce_scatter_block at
// 64 KiB make the heap shrink and grow in every call; the second reads its
// sizes from a file.
const seqDefault = "-msgsize 8,1024,16384,65536 -iter 1000 -iter_policy off PingPong PingPing Sendrecv Exchange Allreduce Reduce Reduce_local Reduce_scatter Reduce_scatter_block;" +
	"-msglen {out}/lengths.txt -iter 1000 -iter_policy off Sendrecv Allgather Alltoall Bcast"

// asked: a peer is named, by -peers or by a flag of its own.
func (c *config) asked() bool {
	named := c.peers != "" || c.imb != "" || c.osu != "" || c.osu74 != "" || c.mcb != ""
	for _, s := range c.suites {
		named = named || s.bin != ""
	}
	return named
}

// jobs plans the launches of the peers that are there, and says in a line
// each why the others' jobs are skipped. IMB: the default list at 2
// processes as a user runs it (the whole list in one launch, so each
// benchmark follows the one IMB runs before it), the non-default
// benchmarks, the sequences (-imb-seq), and the collectives at 4
// processes. OSU: one launch per test. Ring: a fixed number of samples.
func (c *config) jobs() (js []job, skips []string) {
	p := &planner{config: c, peers: c.peers}
	if fi, err := os.Stat(p.peers); p.peers != "" && (err != nil || !fi.IsDir()) {
		p.skip("the peers below -peers: no folder %s", p.peers)
		p.peers = ""
	}
	if c.wants("imb-mpi1") {
		p.imbJobs()
	}
	p.suiteJobs()
	if c.wants("osu") {
		p.osuJobs("osu", c.osuTests, "", c.osuNP)
		p.osuJobs("osu74", c.osu74Tests, "", c.osuNP)
		if c.fanLaunch != "" {
			p.osuJobs("osu74", c.fanTests, c.fanLaunch, c.fanNP)
		}
	}
	if c.wants("ring") {
		p.ringJob()
	}
	return p.js, p.skips
}

// planner collects the jobs and the skip lines of jobs(); peers is
// -peers where that is a folder.
type planner struct {
	*config
	peers string
	js    []job
	skips []string
}

func (p *planner) skip(format string, a ...any) {
	p.skips = append(p.skips, fmt.Sprintf(format, a...))
}

// locate is a peer at the path its flag gives, else below -peers; ""
// when it is not asked for (or its flag is given empty), and "" with a
// skip line for jobs when it is not there.
func (p *planner) locate(path, name, flag, jobs string) string {
	var bin string
	var err error
	switch {
	case path != "":
		bin, err = peerAt(path, name)
	case p.peers != "" && !p.off[flag]:
		bin, err = findPeer(p.peers, name)
	}
	if err != nil {
		p.skip("%s: %v", jobs, err)
	}
	return bin
}

// imbJobs plans IMB-MPI1's jobs: the default list, the non-default
// benchmarks, the sequences and the 4-process collectives.
func (p *planner) imbJobs() {
	c := p.config
	bin := p.locate(c.imb, "IMB-MPI1", "imb", "the IMB-MPI1 jobs")
	if bin == "" {
		return
	}
	extra := strings.Fields(c.imbArgs)
	imb := func(name string, np int, args ...string) job {
		a := append(append([]string{}, extra...), args...)
		return job{name: name, np: np, format: "imb",
			peer: append([]string{bin}, a...), gomb: append([]string{c.gomb, "imb"}, a...)}
	}
	if c.imbDefault {
		var list []string
		if c.imbList != "" {
			list = strings.Split(c.imbList, ",")
		}
		p.js = append(p.js, imb("imb-default-np2", 2, list...))
	}
	if c.extra != "" {
		p.js = append(p.js, imb("imb-extra-np2", 2, append(strings.Fields(c.extraArgs), strings.Split(c.extra, ",")...)...))
	}
	for i, seq := range strings.Split(c.imbSeq, ";") {
		if a := strings.Fields(strings.ReplaceAll(seq, "{out}", c.out)); len(a) > 0 {
			p.js = append(p.js, imb(fmt.Sprintf("imb-seq%d-np2", i+1), 2, a...))
		}
	}
	if c.imbColl != "" {
		a := append(strings.Fields(c.np4Args), "-npmin", "4")
		p.js = append(p.js, imb("imb-coll-np4", 4, append(a, strings.Split(c.imbColl, ",")...)...))
	}
}

// suiteJobs plans a job for each of IMB's other suites asked for.
func (p *planner) suiteJobs() {
	c := p.config
	extra := strings.Fields(c.imbArgs)
	for _, s := range c.suites {
		if !c.wants(s.sub) {
			continue
		}
		name := fmt.Sprintf("%s-np%d", s.sub, s.np)
		bin := p.locate(s.bin, strings.ToUpper(s.sub), s.sub, name)
		if bin == "" {
			continue
		}
		a := append(append([]string{}, extra...), strings.Fields(s.args)...)
		j := job{name: name, np: s.np, format: "imb",
			peer: append([]string{bin}, a...), gomb: append([]string{c.gomb, s.sub}, a...)}
		if s.sub == "imb-io" { // both programs' files on the same file system, out of the way
			j.dir = filepath.Join(c.out, "io")
			j.gomb = append(j.gomb, "-dir", j.dir)
		}
		p.js = append(p.js, j)
	}
}

// osuJobs plans OSU's tests from below the folder its flag names (-osu,
// -osu74; else -peers) under launch ("": -launch), one skip line for
// those not there.
func (p *planner) osuJobs(name, tests, launch string, np int) {
	c := p.config
	dir := c.osu
	if name == "osu74" {
		dir = c.osu74
	}
	if dir == "" && !c.off[name] {
		dir = p.peers
	}
	if dir == "" {
		return
	}
	var missing, names []string
	why := ""
	for _, t := range testList(tests) {
		bin, err := findPeer(dir, "osu_"+t)
		if err != nil {
			missing, names, why = append(missing, "osu-"+t), append(names, "osu_"+t), err.Error()
			continue
		}
		a := strings.Fields(c.osuArgs)
		j := job{name: "osu-" + t, np: np, format: "osu", launch: launch}
		if launch != "" || np != 2 {
			// with a launch of its own, the name keeps fan_in or fan_out:
			// the importer tells OSU's fan tables apart by it
			j.name = fmt.Sprintf("osu-%s-np%d", t, np)
		}
		if t == "latency_mt" {
			a = append(a, strings.Fields(c.mtArgs)...)
			// OSU 7.2's osu_latency_mt returns without MPI_Finalize:
			// Open MPI's mpirun then exits 1 after a complete table
			j.peerNoFinalize = true
		}
		j.peer, j.gomb = append([]string{bin}, a...), append([]string{c.gomb, "osu", t}, a...)
		p.js = append(p.js, j)
	}
	switch {
	case len(missing) == 1:
		p.skip("%s: %s", missing[0], why)
	case len(missing) > 1 && strings.HasPrefix(why, "no folder"):
		p.skip("%s: %s", strings.Join(missing, ", "), why)
	case len(missing) > 1:
		p.skip("%s: no %s below %s", strings.Join(missing, ", "), strings.Join(names, ", "), dir)
	}
}

// ringJob plans the ring against mpi-comm-bench: a fixed number of
// samples.
func (p *planner) ringJob() {
	c := p.config
	bin := p.locate(c.mcb, "mpi_comm_bench", "mcb", "ring-np2")
	if bin == "" {
		return
	}
	const interval = 0.1
	n := fmt.Sprint(c.ringSamples)
	p.js = append(p.js, job{name: "ring-np2", np: 2, format: "ring",
		peer:      []string{bin, fmt.Sprintf("--interval=%g", interval)},
		gomb:      []string{c.gomb, "ring", "--interval", fmt.Sprint(interval), "--count", n},
		interrupt: time.Duration(float64(c.ringSamples+1)*interval*float64(time.Second)) + 2*time.Second})
}

// testList is a comma-separated list of OSU tests, without "osu_".
func testList(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "osu_"); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// launch is one program's run of one job: its values and resources.
type launch struct {
	Job    string             `json:"job"`
	NP     int                `json:"np"`
	Prog   string             `json:"prog"` // "peer" or "gomb"
	Round  int                `json:"round"`
	Values map[string]float64 `json:"values"` // key -> time, µs (bandwidth: 1/MBps)
	WallS  float64            `json:"wall_s"`
	RSSKiB map[int]int64      `json:"rss_kib"` // peak RSS per rank
	PSSKiB map[int]int64      `json:"pss_kib,omitempty"`
	USSKiB map[int]int64      `json:"uss_kib,omitempty"` // peak private memory per rank
}

func measure(c *config, jobs []job, w io.Writer) error {
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	wrap, err := buildWrapper(c.out)
	if err != nil {
		return err
	}
	// the lengths file of the default sequences' -msglen job
	if err := os.WriteFile(filepath.Join(c.out, "lengths.txt"), []byte("# sizes as users list them\n0\n100\n4k\n10000\n64k\n1m\n"), 0o644); err != nil {
		return err
	}
	var all []launch
	start := time.Now()
	for r := 0; r < c.rounds; r++ {
		order := []string{"peer", "gomb", "gomb", "peer"}
		if r%2 == 1 {
			order = []string{"gomb", "peer", "peer", "gomb"}
		}
		for _, j := range jobs {
			for slot, prog := range order {
				l, err := c.runOne(j, prog, r, slot, wrap)
				if err != nil {
					return err
				}
				all = append(all, l)
				fmt.Fprintf(os.Stderr, "\rfidelity %s: round %d/%d, %-18s %-4s %6.1f s (%s so far)   ",
					c.label, r+1, c.rounds, j.name, prog, l.WallS, time.Since(start).Round(time.Second))
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	b, _ := json.MarshalIndent(all, "", " ")
	if err := os.WriteFile(filepath.Join(c.out, "values.json"), b, 0o644); err != nil {
		return err
	}
	report(w, c, jobs, all)
	return nil
}

// runOne launches one program for one job under the launcher, the RSS
// wrapper in front of the program.
func (c *config) runOne(j job, prog string, round, slot int, wrap string) (launch, error) {
	l := launch{Job: j.name, NP: j.np, Prog: prog, Round: round, RSSKiB: map[int]int64{}}
	base := fmt.Sprintf("%s-%s-r%d-s%d", j.name, prog, round, slot)
	rssDir := filepath.Join(c.out, "rss-"+base)
	os.RemoveAll(rssDir)
	if err := os.MkdirAll(rssDir, 0o755); err != nil {
		return l, err
	}
	line := c.launch
	if j.launch != "" {
		line = j.launch
	}
	argv := strings.Fields(strings.ReplaceAll(line, "{np}", fmt.Sprint(j.np)))
	argv = append(argv, wrap, rssDir)
	if prog == "peer" {
		argv = append(argv, j.peer...)
	} else {
		// gomb writes its records too (every raw sample): that is part of
		// its time to answer
		argv = append(append(argv, j.gomb...), "-json", filepath.Join(c.out, base+".jsonl"))
	}
	outPath := filepath.Join(c.out, base+".txt")
	f, err := os.Create(outPath)
	if err != nil {
		return l, err
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	if c.nice != 0 {
		ownSession(cmd)
	}
	if j.dir != "" {
		// the directory is this tool's own: each launch finds it empty
		// (IMB-IO leaves IMB_out behind, and gomb imb-io refuses a -dir
		// that holds a name IMB-IO writes rather than delete it)
		if err := os.RemoveAll(j.dir); err != nil {
			return l, err
		}
		if err := os.MkdirAll(j.dir, 0o755); err != nil {
			return l, err
		}
		cmd.Dir = j.dir
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return l, err
	}
	if c.nice != 0 {
		if err := setNice(cmd.Process.Pid, c.nice); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return l, err
		}
	}
	limit := c.timeout
	interrupted := false
	if prog == "peer" && j.interrupt > 0 {
		limit = j.interrupt
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(limit):
		interrupted = true
		cmd.Process.Signal(os.Interrupt)
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			err = <-done
		}
	}
	l.WallS = time.Since(t0).Seconds()
	var exit *exec.ExitError
	noFinalize := prog == "peer" && j.peerNoFinalize && errors.As(err, &exit) && !interrupted
	if err != nil && !(interrupted && prog == "peer" && j.interrupt > 0) && !noFinalize {
		return l, fmt.Errorf("%s: %v (output in %s)", strings.Join(argv, " "), err, outPath)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		return l, err
	}
	if l.Values, err = values(data, outPath, j); err != nil {
		return l, err
	}
	l.RSSKiB, l.PSSKiB, l.USSKiB = readRSS(rssDir)
	return l, nil
}

// reprint prints the report of saved values: the jobs in the order they
// first ran.
func reprint(c *config, path string, w io.Writer) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var all []launch
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	var jobs []job
	seen := map[string]bool{}
	for _, l := range all {
		c.rounds = max(c.rounds, l.Round+1)
		if !seen[l.Job] {
			seen[l.Job] = true
			jobs = append(jobs, job{name: l.Job, np: l.NP})
		}
	}
	if c.label == "" {
		c.label = path
	}
	report(w, c, jobs, all)
	return nil
}
