package main

import (
	"flag"
	"io"
	"slices"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/ringjob"
	"github.com/gomb-hpc/gomb/internal/session"
)

func ringHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N gomb ring [flags]",
		Intro: `A continuous ring monitor, as mpi-comm-bench: every interval, after a
barrier, rank i sends --msg-size bytes to rank i+1 and receives from rank
i-1 in one timed MPI_Sendrecv. Each sample prints the bandwidth (send +
recv, GB = 10^9 bytes) and the duration, min/max/avg over the ranks. It runs
until SIGINT or SIGTERM (or --count samples), then prints a summary — median
and p99 of the slowest rank, and the rank most often slowest (a straggler) —
and exits 0. The first sample includes connection set-up: it is printed
apart and kept out of the summary.`,
		Groups: []cli.Group{
			{Title: "mpi-comm-bench flags:", Flags: []string{"msg-size", "interval", "count", "mem-copy-local", "gpu"}, Dashes: "--"},
			{Title: "gomb flags:", Flags: slices.Concat([]string{"prom"}, session.RecordFlags, session.WatchFlags)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitWatchdog}, map[int]string{0: "stopped by a signal or after --count samples"}),
		Examples: []string{
			"mpirun -np 8 gomb ring",
			"mpirun -np 64 gomb ring --msg-size 64m --interval 10 --prom /var/lib/node_exporter/ring.prom",
			"mpirun -np 2 gomb ring --count 100 --interval 0.01 -json ring.jsonl",
			"mpirun -np 1 gomb ring --mem-copy-local --gpu",
		},
	}
}

type ringConfig struct {
	opt ring.Options
	session.Flags
	prom string
}

func newRingConfig() *ringConfig { return &ringConfig{opt: ring.DefaultOptions()} }

var ringUsage = helpWriter(ringHelp, ringFlags(newRingConfig()))

func ringFlags(cfg *ringConfig) *flag.FlagSet {
	fs := cli.NewFlagSet("ring")
	cfg.opt.Register(fs)
	fs.StringVar(&cfg.prom, "prom", "", "`FILE` keep an OpenMetrics file for node_exporter's textfile collector, rewritten atomically after every sample")
	cfg.Flags.Register(fs)
	return fs
}

func parseRing(args []string) (*ringConfig, error) {
	cfg := newRingConfig()
	pos, err := cli.ParseFlags(ringFlags(cfg), args)
	switch {
	case err != nil:
		return cfg, err
	case len(pos) > 0:
		return cfg, cli.Usage("unexpected argument %q", pos[0])
	}
	if err := cfg.opt.Check(); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	return cfg, cli.Distinct(append(cfg.Outputs(), cli.Named{Flag: "--prom", Path: cfg.prom}), nil)
}

func runRing(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseRing(args)
	c := &session.Command{Name: "ring", Suite: ring.Suite, Level: ring.ThreadLevel, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: ringUsage.write}
	return measure.Run(c, perr, stdout, stderr, ringjob.New(&cfg.opt, cfg.prom))
}
