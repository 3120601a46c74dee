package main

import (
	"io"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/fleetjob"
	"github.com/gomb-hpc/gomb/internal/session"
)

// fleetHelp is the help of gomb fleet.
func fleetHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N --map-by node gomb fleet [flags]",
		Intro: `Measures latency and bandwidth between every pair of nodes of the job, in
one launch: the ranks are grouped by host, and the node pairs run in
rounds in which every node has at most one partner (about N rounds for N
nodes, the pairs of a round at once). Each pair runs osu_latency's loop
(-lat bytes, -i round trips; a row's time is half a round trip) and
osu_bw's (-bw bytes in windows of -w from the first node to the second,
-bw-iter windows). Every round trip and window is kept in the records
with both hosts, the ranks and which interfaces carried the bytes.
'gomb explain' on the records names a node that is slow with all its
partners and a link slow between two nodes that are fine with others;
'gomb report' draws the node x node matrices. -per-node all or cross
measure every rank's NIC where a node has several (a rank bound to each).`,
		Groups: []cli.Group{
			{Title: "Sweep flags:", Flags: []string{"lat", "bw", "i", "bw-iter", "w", "x", "budget", "per-node", "serial", "sweeps", "by-rank", "resume", "list"}},
			{Title: "gomb flags:", Flags: append(append([]string{}, session.RecordFlags...), session.WatchFlags...)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitWatchdog, cli.ExitSignal}, nil),
		Examples: []string{
			"mpirun -np 16 --map-by node gomb fleet -json fleet.jsonl      # 16 nodes, one rank each",
			"srun -N 64 --ntasks-per-node=1 gomb fleet -json fleet.jsonl -deadline 20m",
			"mpirun -np 32 --map-by ppr:2:node gomb fleet -per-node cross   # both NICs of every node",
			"mpirun -np 8 gomb fleet -serial -sweeps 3 -bw 4m",
			"gomb explain fleet.jsonl                                       # the slow node or link, named",
		},
	}
}

type fleetConfig = suiteConfig[*fleet.CommandLine]

var fleetUsage = helpWriter(fleetHelp, suiteFlags("fleet", &fleetConfig{CL: fleet.NewCommandLine()}))

// parseFleet parses gomb fleet's command line without touching MPI.
func parseFleet(args []string) (*fleetConfig, error) {
	return parseSuite("fleet", fleet.NewCommandLine(), args)
}

var fleetList = suiteList("gomb fleet", func() []string { return []string{fleet.Latency, fleet.Bandwidth} },
	func() []string {
		return []string{"osu_latency's ping-pong between the pair: half a round trip",
			"osu_bw's windows from the pair's first node to its second: MB/s"}
	})

func runFleet(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseFleet(args)
	c := &session.Command{Name: "fleet", Suite: fleet.Suite, Level: kernel.NoThreadInit, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: fleetUsage.write, List: fleetList, Listing: cfg.list}
	return measure.Run(c, perr, stdout, stderr, fleetjob.New(cfg.CL, "gomb "+version))
}
