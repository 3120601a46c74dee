package main

import (
	"io"

	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/mtjob"
	"github.com/gomb-hpc/gomb/internal/session"
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
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitWatchdog, cli.ExitNotRun, cli.ExitSignal}, map[int]string{cli.ExitNotRun: mpiErrorEnded}),
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

func runMT(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseMT(args)
	c := &session.Command{Name: "imb-mt", Suite: mt.Suite, Level: cfg.CL.Thread, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: mtUsage.write, List: mtList, Listing: cfg.list}
	return measure.Run(c, perr, stdout, stderr, mtjob.New(cfg.CL, "gomb "+version))
}
