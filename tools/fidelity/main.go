// Command fidelity measures gomb against the real peer programs on the
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

Peers (at least one):
  -imb PATH     IMB-MPI1 built for the launcher's MPI
  -imb-nbc PATH IMB-NBC built for the launcher's MPI
  -imb-mpi4 PATH IMB-MPI4 built for the launcher's MPI
  -imb-ext PATH IMB-EXT built for the launcher's MPI
  -imb-rma PATH IMB-RMA built for the launcher's MPI
  -imb-p2p PATH IMB-P2P built for the launcher's MPI
  -imb-mt PATH  IMB-MT built for the launcher's MPI (one thread a rank unless
                -imb-mt-args says -thread_level multiple)
  -imb-io PATH  IMB-IO built for the launcher's MPI (both write their files
                in the work directory's io/)
  -osu DIR      directory holding the OSU 7 binaries (osu_latency, ...), or
                OSU's libexec tree
  -osu74 DIR    directory holding OSU 7.4's tests gomb adds (the persistent
                collectives, -osu74-tests; the fan tests, -osu74-fan-tests,
                run under -fan-launch across hosts)
  -mcb PATH     mpi-comm-bench's binary

Flags:
`

func main() {
	cfg := config{}
	fs := flag.NewFlagSet("fidelity", flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprint(os.Stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.label, "mpi", "", "a name for the MPI library in the report (default: the launcher's first word)")
	fs.StringVar(&cfg.launch, "launch", "", "launcher line; {np} is replaced by the process count")
	fs.StringVar(&cfg.gomb, "gomb", "bin/gomb", "gomb binary built for the launcher's MPI")
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
	fs.StringVar(&cfg.osu, "osu", "", "OSU binaries directory")
	fs.StringVar(&cfg.osu74, "osu74", "", "OSU 7.4 binaries directory (the persistent collectives)")
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
	fs.StringVar(&cfg.only, "only", "", "run only these suites (imb,osu,ring)")
	fs.StringVar(&cfg.out, "out", "out/fidelity", "work directory: every output, the raw values (values.json)")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "limit per launch")
	from := fs.String("from", "", "print the report of an earlier run's values.json (measures nothing)")
	fs.Parse(os.Args[1:])
	if *from != "" {
		if err := reprint(&cfg, *from, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fidelity:", err)
			os.Exit(1)
		}
		return
	}
	if cfg.launch == "" || !strings.Contains(cfg.launch, "{np}") {
		fmt.Fprintln(os.Stderr, "fidelity: -launch must give the launcher line with {np} for the process count")
		os.Exit(2)
	}
	if cfg.label == "" {
		cfg.label = strings.Fields(cfg.launch)[0]
	}
	// IMB-IO's job runs in a directory of its own: every path absolute
	for _, p := range []*string{&cfg.out, &cfg.gomb} {
		*p, _ = filepath.Abs(*p)
	}
	for _, s := range cfg.suites {
		if s.bin != "" {
			s.bin, _ = filepath.Abs(s.bin)
		}
	}
	jobs, err := cfg.jobs()
	if err == nil && len(jobs) == 0 {
		err = errors.New("no peer given (-imb, -imb-nbc, -imb-mpi4, -imb-ext, -imb-rma, -imb-p2p, -imb-mt, -imb-io, -osu, -osu74, -mcb)")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fidelity:", err)
		os.Exit(2)
	}
	if err := run(&cfg, jobs, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fidelity:", err)
		os.Exit(1)
	}
}

type config struct {
	label, launch, gomb, imb, osu, mcb         string
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

func (c *config) wants(suite string) bool {
	if c.only == "" {
		return true
	}
	for _, s := range strings.Split(c.only, ",") {
		if strings.TrimSpace(s) == suite {
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

// jobs plans the launches. IMB: the default list at 2 processes as a user
// runs it (the whole list in one launch, so each benchmark follows the one
// IMB runs before it), the non-default benchmarks, the sequences
// (-imb-seq), and the collectives at 4 processes. OSU: one launch per
// test. Ring: a fixed number of samples.
func (c *config) jobs() ([]job, error) {
	var js []job
	extra := strings.Fields(c.imbArgs)
	if c.imb != "" && c.wants("imb") {
		imb := func(name string, np int, args ...string) job {
			a := append(append([]string{}, extra...), args...)
			return job{name: name, np: np, format: "imb",
				peer: append([]string{c.imb}, a...), gomb: append([]string{c.gomb, "imb"}, a...)}
		}
		if c.imbDefault {
			var list []string
			if c.imbList != "" {
				list = strings.Split(c.imbList, ",")
			}
			js = append(js, imb("imb-default-np2", 2, list...))
		}
		if c.extra != "" {
			js = append(js, imb("imb-extra-np2", 2, append(strings.Fields(c.extraArgs), strings.Split(c.extra, ",")...)...))
		}
		for i, seq := range strings.Split(c.imbSeq, ";") {
			a := strings.Fields(strings.ReplaceAll(seq, "{out}", c.out))
			if len(a) > 0 {
				js = append(js, imb(fmt.Sprintf("imb-seq%d-np2", i+1), 2, a...))
			}
		}
		if c.imbColl != "" {
			a := append(strings.Fields(c.np4Args), "-npmin", "4")
			js = append(js, imb("imb-coll-np4", 4, append(a, strings.Split(c.imbColl, ",")...)...))
		}
	}
	for _, s := range c.suites {
		if s.bin != "" && c.wants("imb") {
			a := append(append([]string{}, extra...), strings.Fields(s.args)...)
			j := job{name: fmt.Sprintf("%s-np%d", s.sub, s.np), np: s.np, format: "imb",
				peer: append([]string{s.bin}, a...), gomb: append([]string{c.gomb, s.sub}, a...)}
			if s.sub == "imb-io" { // both programs' files on the same file system, out of the way
				j.dir = filepath.Join(c.out, "io")
				j.gomb = append(j.gomb, "-dir", j.dir)
			}
			js = append(js, j)
		}
	}
	for _, o := range []struct{ dir, tests string }{{c.osu, c.osuTests}, {c.osu74, c.osu74Tests}} {
		if o.dir == "" || !c.wants("osu") {
			continue
		}
		for _, t := range testList(o.tests) {
			bin, err := findOSU(o.dir, "osu_"+t)
			if err != nil {
				return nil, err
			}
			a := strings.Fields(c.osuArgs)
			j := job{name: "osu-" + t, np: c.osuNP, format: "osu"}
			if c.osuNP != 2 {
				j.name = fmt.Sprintf("osu-%s-np%d", t, c.osuNP)
			}
			if t == "latency_mt" {
				a = append(a, strings.Fields(c.mtArgs)...)
				// OSU 7.2's osu_latency_mt returns without MPI_Finalize:
				// Open MPI's mpirun then exits 1 after a complete table
				j.peerNoFinalize = true
			}
			j.peer, j.gomb = append([]string{bin}, a...), append([]string{c.gomb, "osu", t}, a...)
			js = append(js, j)
		}
	}
	if c.osu74 != "" && c.fanLaunch != "" && c.wants("osu") {
		for _, t := range testList(c.fanTests) {
			bin, err := findOSU(c.osu74, "osu_"+t)
			if err != nil {
				return nil, err
			}
			a := strings.Fields(c.osuArgs)
			// the name keeps fan_in or fan_out: the importer tells OSU's
			// fan tables apart by it
			js = append(js, job{name: fmt.Sprintf("osu-%s-np%d", t, c.fanNP), np: c.fanNP, format: "osu", launch: c.fanLaunch,
				peer: append([]string{bin}, a...), gomb: append([]string{c.gomb, "osu", t}, a...)})
		}
	}
	if c.mcb != "" && c.wants("ring") {
		const interval = 0.1
		n := fmt.Sprint(c.ringSamples)
		js = append(js, job{name: "ring-np2", np: 2, format: "ring",
			peer:      []string{c.mcb, fmt.Sprintf("--interval=%g", interval)},
			gomb:      []string{c.gomb, "ring", "--interval", fmt.Sprint(interval), "--count", n},
			interrupt: time.Duration(float64(c.ringSamples+1)*interval*float64(time.Second)) + 2*time.Second})
	}
	return js, nil
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

// findOSU finds an OSU binary in dir or below it (OSU installs into
// libexec/osu-micro-benchmarks/mpi/<kind>/).
func findOSU(dir, name string) (string, error) {
	var found string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && found == "" && !d.IsDir() && d.Name() == name {
			found = p
		}
		return nil
	})
	if found == "" {
		return "", fmt.Errorf("%s: no %s there", dir, name)
	}
	return found, nil
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

func run(c *config, jobs []job, w io.Writer) error {
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
