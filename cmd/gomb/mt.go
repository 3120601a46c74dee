package main

import (
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/bench/mtrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// mtHelp is the help of gomb imb-mt.
func mtHelp() *cli.Help {
	return &cli.Help{
		Usage: "OMP_NUM_THREADS=T mpirun -np N gomb imb-mt -thread_level multiple [flags] [benchmark ...]",
		Intro: `Runs IMB-MT's benchmarks with IMB-MT's measurement semantics, flags and
text tables, and writes every raw sample to a JSON Lines record file.
With -thread_level multiple (MPI_THREAD_MULTIPLE) every rank runs an
OpenMP team of OMP_NUM_THREADS threads, each on MPI_COMM_WORLD duplicated
for it and with buffers of its own; without it, one thread. Threads are
OS threads running C loops. A row is one element count (-count): #bytes
is the count times the type's size times the threads; t_min, t_max and
t_avg are over every thread of every rank, per repetition.
Without names, all run, in this order:
` + wrapList(mt.Names()) + `
Benchmark names are case-insensitive; 'gomb imb-mt -list' shows them all.`,
		Groups: []cli.Group{
			{Title: "IMB-MT flags (one dash, value after a space):", Flags: []string{"thread_level", "count", "stride", "warmup",
				"repeat", "window_size", "barrier", "malloc_align", "malloc_algo", "check", "noheader", "datatype", "list"}},
			{Title: "gomb flags:", Flags: append([]string{"samples"}, append(session.RecordFlags, session.WatchFlags...)...)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitWatchdog, cli.ExitSignal}, nil),
		Examples: []string{
			"OMP_NUM_THREADS=2 mpirun -np 2 -x OMP_NUM_THREADS gomb imb-mt -thread_level multiple PingPongMT",
			"mpirun -np 4 gomb imb-mt -count 1,1024,65536 -repeat 200 AllReduceMT BarrierMT",
			"OMP_NUM_THREADS=4 mpiexec -n 2 gomb-mpich imb-mt -thread_level multiple -check on -json mt.jsonl",
		},
	}
}

type mtConfig = suiteConfig[*mt.CommandLine]

var mtUsage = helpWriter(mtHelp, suiteFlags("imb-mt", &mtConfig{CL: mt.NewCommandLine()}))

// parseMT parses gomb imb-mt's command line without touching MPI.
func parseMT(args []string) (*mtConfig, error) {
	return parseSuite("imb-mt", mt.NewCommandLine(), args)
}

var mtList = suiteList("IMB-MT", mt.Names, func() (out []string) {
	for _, s := range mt.Specs() {
		out = append(out, s.Summary)
	}
	return out
})

// mtSink is rank 0's mtrun.Sink: IMB-MT text plus records.
type mtSink struct {
	s    *session.Session
	text *imbtext.MTWriter
}

func (k mtSink) Table(s *mt.Spec, np, threads, window int) error {
	return k.s.Locked(func() error { return k.text.Table(s, np, threads, window) })
}

func (k mtSink) NoResults(s *mt.Spec) error {
	return k.s.Locked(func() error { return k.text.NoResults(s) })
}

func (k mtSink) Result(r *result.Result) error {
	s, _ := mt.Lookup(r.Benchmark)
	return k.s.Result(r, func(r *result.Result) error { return k.text.Result(s, r) })
}

func runMT(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseMT(args)
	c := &session.Command{Name: "imb-mt", Suite: mt.Suite, Level: cfg.CL.Thread, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: mtUsage.write, List: mtList, Listing: cfg.list}
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		var specs []*mt.Spec
		for _, n := range cfg.CL.Names {
			sp, _ := mt.Lookup(n)
			if sp.Unpaired(&cfg.CL.Options, s.Size) {
				return s.Fail(cli.Usage("%s: no rank has a partner at -stride %d with %d processes (at most half the ranks, %d)",
					sp.Name, cfg.CL.Options.Stride, s.Size, s.Size/2))
			}
			specs = append(specs, sp)
		}
		if cfg.CL.Multiple && s.Provided() < kernel.ThreadMultiple {
			// IMB-MT stops here too ("can't setup a required MPI threading mode")
			return s.Fail(cli.Usage("-thread_level multiple: this MPI library provides only %s; IMB-MT's threads need MPI_THREAD_MULTIPLE", s.Provided()))
		}
		team, err := mpi.NewMT(cfg.CL.Options.Multiple)
		if err != nil {
			return s.Fail(err)
		}
		defer team.Free()
		cfg.CL.Options.Threads = team.Threads()
		text, run, err := session.Open(s, cfg.CL.Options, stdout, imbtext.NewMTWriter)
		if err != nil {
			return s.Fail(err)
		}
		defer s.OnSignal()()
		eng := &mtrun.Engine{Opt: cfg.CL.Options, Team: team, World: s.World, RunID: s.RunID(),
			Watch: s.Watch(5 * time.Minute)}
		if !cfg.CL.NoHeader {
			if err := s.OnRoot(func() error { return text.Preamble("gomb " + version + " (IMB-MT 2021.11 compatible)") }); err != nil {
				return s.Fail(err)
			}
		}
		if s.Rank == 0 {
			eng.Hosts = session.Hosts(run)
			eng.Sink = mtSink{s, text}
			rows := 0
			for _, sp := range specs {
				rows += len(cfg.CL.CountsOf(sp))
			}
			if p := s.Progress(rows); p != nil {
				eng.Progress = func(sp *mt.Spec, bytes int64) { p.Step(sp.Name, s.Size, bytes, !sp.Sizeless()) }
			}
		}
		return s.Measure(func() (int, error) {
			err := eng.Run(specs)
			return eng.CheckFailures, err
		}, text.Footer, "-check: %d result rows failed validation (marked '# !! check failed' above)")
	})
}
