package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/osurun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"golang.org/x/term"
)

func osuHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N gomb osu TEST [flags] [H|D H|D]\n       mpirun -np N gomb osu TEST|SUITE... [flags]",
		Intro: `Runs OSU Micro-Benchmarks 7 tests with OSU's semantics and text layout
and writes every raw sample to a JSON Lines record file. 'gomb osu -list'
shows the tests; the "osu_" prefix is optional (osu_latency = latency).
Several tests, or a suite (pt2pt, collective, one-sided, startup, all), run
one after another in one job, each with its table; a closing summary says
which did not run and why, and which failed validation.`,
		Groups: []cli.Group{
			{Title: "OSU flags:", Flags: []string{"m,message-size", "i,iterations", "x,warmup", "f,full",
				"W,window-size", "M,mem-limit", "c,validation", "T,type", "k", "l", "z", "d,accelerator", "w", "s", "t", "I,session", "D,ddt", "G,graph", "N,nhbr", "list"}},
			{Title: "gomb flags:", Flags: slices.Concat(session.RecordFlags, session.WatchFlags)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitWatchdog, cli.ExitNotRun, cli.ExitSignal}, map[int]string{cli.ExitUsage: "bad flags or input (or none of several tests can run)", cli.ExitCheckFailed: "-c found wrong data"}),
		Examples: []string{
			"mpirun -np 2 gomb osu latency",
			"mpirun -np 2 gomb osu bw -m 1024:1048576 -json bw.jsonl",
			"mpirun -np 2 gomb osu put_latency -w create -s lock",
			"mpirun -np 8 gomb osu allreduce -f -T mpi_float",
			"mpirun -np 4 gomb osu ialltoall -t 10",
			"mpirun -np 2 gomb osu oneway            # each direction, synchronised clocks",
			"mpirun -np 2 gomb osu latency -d cuda D H",
			"mpirun -np 2 gomb osu latency_mt -t 2:4       # 2 sender, 4 receiver threads",
			"mpirun -np 64 gomb osu init                   # MPI_Init's time on every rank",
			"mpirun -np 8 -npernode 4 gomb osu bw_fan_in   # two or more hosts, as many ranks on each",
			"mpirun -np 27 gomb osu neighbor_alltoall -N cart:3:1   # 3x3x3 grid, 26 neighbours each",
			"mpirun -np 2 gomb osu bw -D vect:8:4          # every message a vector: 4 of every 8 elements",
			"mpirun -np 2 gomb osu latency bw bibw -json pt2pt.jsonl   # three tests, one job",
			"mpirun -np 8 gomb osu collective -m 1:65536   # every collective test",
		},
	}
}

// osuConfig is the parsed command line.
type osuConfig struct {
	opt  osu.Options
	spec *osu.Spec // one test
	// specs: several tests, or a suite's, one after another in one job
	// (runOSUMany)
	specs []*osu.Spec
	session.Flags
	list bool
}

func newOSUConfig() *osuConfig { return &osuConfig{opt: osu.DefaultOptions()} }

var osuUsage = helpWriter(osuHelp, osuFlags(newOSUConfig()))

func osuFlags(cfg *osuConfig) *flag.FlagSet {
	fs := newFlagSet("osu")
	cfg.opt.Register(fs)
	cfg.Flags.Register(fs)
	fs.BoolVar(&cfg.list, "list", false, "list the tests and exit")
	return fs
}

// parseOSU parses the command line without touching MPI. It returns
// flag.ErrHelp for -help.
func parseOSU(args []string) (*osuConfig, error) {
	cfg := newOSUConfig()
	pos, err := parseFlags(osuFlags(cfg), osuArgs(args))
	if err != nil || cfg.list {
		return cfg, err
	}
	if many(pos) {
		if cfg.opt.Device != "" {
			return cfg, cli.Usage("-d cuda runs one test at a time")
		}
		if cfg.specs, err = osu.Select(pos); err != nil {
			return cfg, cli.Usage("%v", err)
		}
		return cfg, cli.Distinct(cfg.Outputs(), nil)
	}
	if cfg.spec, err = cfg.opt.Args(pos); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	return cfg, cli.Distinct(cfg.Outputs(), nil)
}

// osuArgs spells OSU's optional -z and -c arguments, which getopt takes
// attached (-z25,75, -clog:DIR), as Go's flag package reads them (-z=25,75,
// -c=log:DIR).
func osuArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case len(a) > 2 && strings.HasPrefix(a, "-z") && a[2] >= '0' && a[2] <= '9':
			a = "-z=" + a[2:]
		case strings.HasPrefix(a, "-clog"):
			a = "-c=" + a[2:]
		}
		out[i] = a
	}
	return out
}

func osuList(w io.Writer) {
	fmt.Fprintf(w, "# OSU Micro-Benchmarks 7 tests in gomb\n")
	width := 0
	for _, s := range osu.Specs() {
		width = max(width, len(s.Name))
	}
	for _, s := range osu.Specs() {
		fmt.Fprintf(w, "  %-*s %s\n", width, s.Name, s.Summary)
	}
	fmt.Fprintf(w, "# suites (several tests in one job): %s\n", strings.Join(osu.Suites, ", "))
}

// osuSink is rank 0's osu.Sink.
type osuSink struct {
	s    *session.Session
	text *osutext.Writer
	opt  *osu.Options
}

func (k osuSink) Table(t *osu.Table) error {
	return k.s.Locked(func() error { return k.text.Table(t) })
}

func (k osuSink) Result(r *result.Result) error { return k.s.Result(r, k.text.Result) }

// Graphs draws -G's graphs: on the terminal (tty) under the table, as
// PNG files osu_TEST-SIZE.png in the working directory (png), as OSU names
// them; a comment line says which files.
func (k osuSink) Graphs(gs []osu.Graph) error {
	o := k.opt
	if o.GraphOn("tty") {
		width := 80
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			width = w
		}
		if err := k.s.Locked(func() error { return k.text.Graphs(gs, width) }); err != nil {
			return err
		}
	}
	if !o.GraphOn("png") {
		return nil
	}
	var names []string
	for _, g := range gs {
		name := fmt.Sprintf("osu_%s-%d", g.Test, g.Bytes)
		p, err := report.IterationPlot(name, fmt.Sprintf("osu_%s  Size: %d, Avg: %.2f", g.Test, g.Bytes, g.Avg), g.Unit, g.Values)
		if err != nil {
			return err
		}
		if err := os.WriteFile(name+".png", p.PNG, 0o644); err != nil {
			return fmt.Errorf("-G png: %w", err)
		}
		names = append(names, name+".png")
	}
	return k.s.Locked(func() error {
		return k.text.Comment(fmt.Sprintf("-G png: %d graphs written: %s ... %s", len(names), names[0], names[len(names)-1]))
	})
}

// many reports whether the positional arguments name several tests or a
// suite rather than one test and its buffer placement letters.
func many(pos []string) bool {
	if len(pos) <= 1 {
		return len(pos) == 1 && osu.IsSuite(pos[0])
	}
	for _, p := range pos[1:] {
		if p != "H" && p != "D" {
			return true
		}
	}
	return false
}

func runOSU(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseOSU(args)
	if perr == nil && cfg.opt.Session && !mpi.SessionsAvailable() {
		perr = cli.Usage("-I: this MPI library has no MPI-4 sessions (MPI_Session_init: MPICH from 4.0, Open MPI from 5.0)")
	}
	if perr == nil && len(cfg.specs) > 0 {
		return runOSUMany(stdout, stderr, args, cfg)
	}
	level := osu.ThreadLevel
	if cfg.spec != nil && cfg.spec.Threads {
		level = kernel.ThreadMultiple // osu_latency_mt's MPI_Init_thread
	}
	c := &session.Command{Name: "osu", Suite: osu.Suite, Level: level, Session: cfg.opt.Session && perr == nil, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: osuUsage.write, List: osuList, Listing: cfg.list}
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		sp, o := cfg.spec, &cfg.opt
		if err := readIndexed(s, o); err != nil {
			return s.Fail(err)
		}
		if err := freshLogDir(s, o); err != nil {
			return s.Fail(err)
		}
		if err := runnable(s, sp, o); err != nil {
			return s.Fail(err)
		}
		eng := &osurun.Engine{Opt: *o, World: s.World, RunID: s.RunID(), Fault: s.Fault}
		if o.Device != "" {
			dev, err := s.OpenDevice("-d cuda", s.Rank < 2 && o.Place[s.Rank] == 'D')
			if err != nil {
				return s.Fail(err)
			}
			eng.Device = dev
		}
		text, run, err := session.Open(s, map[string]any{"test": sp.Name, "options": o}, stdout, osutext.NewWriter)
		if err != nil {
			return s.Fail(err)
		}
		defer s.OnSignal()()
		eng.Watch = s.Watch(0)
		if s.Rank == 0 {
			eng.Hosts = session.Hosts(run)
		}
		if err := fanLayout(s, eng, sp); err != nil {
			return s.Fail(err)
		}
		if err := nbrLayout(s, eng, sp); err != nil {
			return s.Fail(err)
		}
		if s.Rank == 0 {
			eng.Sink = osuSink{s, text, o}
			if p := s.Progress(len(o.Sizes(sp, s.Size))); p != nil {
				eng.Progress = func(size int64, done, total int) { p.Step(sp.Name, s.Size, size, !sp.NoSize) }
			}
		}
		return s.Measure(func() (int, error) { return measureOSU(s, eng, sp) }, nil, "-c: %d sizes failed validation")
	})
}

// measureOSU runs one test: its sizes, or the start-up tests' one line.
func measureOSU(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (int, error) {
	if sp.Kind == osu.Startup {
		return 0, eng.Startup(sp, s.InitTook())
	}
	sum, err := eng.Run(sp)
	return sum.ValidationFailed, err
}

// runnable says what keeps sp from running in this job with options o
// (checked against sp already): the process count, the thread level, the
// MPI library's persistent collectives.
func runnable(s *session.Session, sp *osu.Spec, o *osu.Options) error {
	if err := o.CheckWorld(sp, s.Size); err != nil {
		return cli.Usage("%v", err)
	}
	if sp.Threads && s.Provided() != kernel.ThreadMultiple {
		return fmt.Errorf("%s needs MPI_THREAD_MULTIPLE; MPI_Init_thread gave %s", sp.Name, s.Provided())
	}
	if sp.Job.Persist && sp.Kind == osu.Collective && !mpi.PersistentCollectives() {
		return cli.Usage("%s: this MPI library lacks MPI-4 persistent collectives (MPI_<op>_init; Open MPI 4 has them as MPIX_<op>_init in its pcollreq extension)", sp.Name)
	}
	if sp.Job.Kernel == kernel.RMA {
		p, win := sp.Job, sp.Win
		p.Type = o.ElemType(sp)
		if o.WinSet {
			win = o.Win
		}
		if why := mpi.Defect(p, win, s.World.OneNode()); why != "" {
			return cli.Usage("%s: %s", sp.Name, why)
		}
	}
	return nil
}

// fanLayout lays the fan tests' ranks out over the hosts rank 0 knows
// (eng.Hosts), every rank alike.
func fanLayout(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (err error) {
	if sp.IsFan() {
		if eng.Fan, err = osurun.FanLayout(s.World, eng.Hosts); err != nil {
			return cli.Usage("%s %v", sp.Name, err)
		}
	}
	return nil
}

// nbrLayout makes the neighbourhood collectives' graph, every rank alike.
func nbrLayout(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (err error) {
	if sp.Neighbour() {
		if eng.Nbr, err = osurun.NeighbourLayout(s.World, *eng.Opt.Topology); err != nil {
			return cli.Usage("%s: %v", sp.Name, err)
		}
	}
	return nil
}

// freshLogDir refuses -c log's directory where it exists already, as OSU
// 7.4 does (rank 0's view), so that one run's log is never mixed into
// another's.
func freshLogDir(s *session.Session, o *osu.Options) error {
	if o.ValidationLog == "" {
		return nil
	}
	return s.Agree(func() string {
		if _, err := os.Stat(o.ValidationLog); err == nil {
			return fmt.Sprintf("-c log: %q already exists: name a new directory with -clog:DIR", o.ValidationLog)
		}
		return ""
	})
}

// readIndexed reads -D indx's file on rank 0 into the options, every rank
// alike (CheckWorld then checks that the type fits the messages).
func readIndexed(s *session.Session, o *osu.Options) error {
	d := o.DDT
	if d == nil || d.Kind != "indx" {
		return nil
	}
	data, err := osurun.ReadOnRoot(s.World, d.File)
	if err != nil {
		return cli.Usage("-D %s: %v", d, err)
	}
	if d.Displs, d.Lens, _, err = osu.IndexedBlocks(data, d.File); err != nil {
		return cli.Usage("%v", err)
	}
	return nil
}
