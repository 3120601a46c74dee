package main

import (
	"io"

	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/congestionjob"
	"github.com/gomb-hpc/gomb/internal/session"
)

// congestionHelp is the help of gomb congestion.
func congestionHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N --map-by node gomb congestion [flags]",
		Intro: `Measures how much the fabric's congestion slows the traffic of others, as
GPCNeT's network_load_test does: a fifth of the nodes (-canary-share, at
least 2) run three canaries, a random-ring latency (8 bytes to and from
both neighbours), a random-ring bandwidth (8 x 128 KiB each way and a
barrier) and an 8-byte allreduce, first alone and then while the other
nodes, dealt in turn to the congestors (all-to-all, incast, one-sided put
incast and get broadcast, 4 KiB), load the fabric. The congestion impact
factor is the congested value over the isolated one (bandwidth: isolated
over congested), of GPCNeT's average and 99th percentile, with a 95%
interval over -trials repetitions. One rank a node takes part; every
sample and what each congestor moved are kept in the records.`,
		Groups: []cli.Group{
			{Title: "Canary flags:", Flags: []string{"lat", "lat-iter", "bw", "bw-inflight", "bw-iter", "allreduce-iter", "rings", "measurements", "time", "trials"}},
			{Title: "Layout and congestor flags:", Flags: []string{"canary-share", "canaries", "seed", "by-rank", "congestors", "congestor-bytes", "batch", "poll", "list"}},
			{Title: "gomb flags:", Flags: append(append([]string{}, session.RecordFlags...), session.WatchFlags...)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitWatchdog, cli.ExitSignal}, nil),
		Examples: []string{
			"mpirun -np 64 --map-by node gomb congestion -json cong.jsonl      # 13 canary nodes, 51 congestor nodes",
			"srun -N 128 --ntasks-per-node=1 gomb congestion -time 10s -trials 5",
			"mpirun -np 16 --map-by node gomb congestion -canaries c01,c09 -congestors incast,alltoall",
			"gomb explain cong.jsonl                                         # the impact factors, in words",
		},
	}
}

type congestionConfig = suiteConfig[*congestion.CommandLine]

var congestionUsage = helpWriter(congestionHelp, suiteFlags("congestion", &congestionConfig{CL: congestion.NewCommandLine()}))

// parseCongestion parses gomb congestion's command line without touching MPI.
func parseCongestion(args []string) (*congestionConfig, error) {
	return parseSuite("congestion", congestion.NewCommandLine(), args)
}

var congestionList = suiteList("gomb congestion", func() []string { return congestion.Tests },
	func() []string {
		return []string{"random ring: 8 bytes to and from both neighbours, half an iteration (usec)",
			"random ring: 8 x 128 KiB to and from both neighbours and a barrier (MB/s a rank)",
			"MPI_Allreduce of 8 bytes over the canaries (usec)"}
	})

func runCongestion(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseCongestion(args)
	c := &session.Command{Name: "congestion", Suite: congestion.Suite, Level: kernel.NoThreadInit, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: congestionUsage.write, List: congestionList, Listing: cfg.list}
	return measure.Run(c, perr, stdout, stderr, congestionjob.New(cfg.CL, "gomb "+version))
}
