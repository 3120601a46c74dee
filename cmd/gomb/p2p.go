package main

import (
	"io"

	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/p2pjob"
	"github.com/gomb-hpc/gomb/internal/session"
)

// p2pHelp is the help of gomb imb-p2p.
func p2pHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N gomb imb-p2p [flags] [benchmark ...]",
		Intro: `Runs IMB-P2P's benchmarks with IMB-P2P's measurement semantics, flags and
text tables, and writes every raw sample to a JSON Lines record file.
IMB-P2P is a program of its own: every benchmark runs over all the
processes started (PingPong and PingPing pair rank i with i + np/2; the
random ones draw pairs or rings from IMB's generator; the stencils
exchange halos on a periodic grid of all ranks), a size at a time, with
round(MiB x 2^20 / size) iterations (-iter), a tenth more first as warm-up,
and a pause before and after each size (-pause). t[usec] is IMB-P2P's:
the ranks' summed loop time per message moved (PingPong: per half round
trip); Mbytes/sec and Msg/sec are the messages over the slowest rank's
time.
Without names, all run, in this order:
` + wrapList(p2p.Names()) + `
Benchmark names are case-insensitive; 'gomb imb-p2p -list' shows them all.`,
		Groups: []cli.Group{
			{Title: "IMB-P2P flags (one dash, value after a space):", Flags: []string{"iter", "msglog", "msglen", "msgsz",
				"msgwr", "msgrd", "pause", "list"}},
			{Title: "gomb flags:", Flags: append([]string{"samples"}, append(session.RecordFlags, session.WatchFlags...)...)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitWatchdog, cli.ExitNotRun, cli.ExitSignal}, map[int]string{cli.ExitNotRun: mpiErrorEnded}),
		Examples: []string{
			"mpirun -np 2 gomb imb-p2p PingPong PingPing",
			"mpirun -np 4 gomb imb-p2p -msglog 16 -pause 0 Stencil2D Corandom",
			"mpirun -np 8 gomb imb-p2p -iter 1000,100 -json p2p.jsonl Stencil3D",
			"mpiexec -n 2 gomb-mpich imb-p2p -msgsz 8 -msgsz 1m -msgwr off SendRecv_Replace",
		},
	}
}

type p2pConfig = suiteConfig[*p2p.CommandLine]

var p2pUsage = helpWriter(p2pHelp, suiteFlags("imb-p2p", &p2pConfig{CL: p2p.NewCommandLine()}))

// parseP2P parses gomb imb-p2p's command line without touching MPI or
// files other than -msglen's.
func parseP2P(args []string) (*p2pConfig, error) {
	return parseSuite("imb-p2p", p2p.NewCommandLine(), args)
}

var p2pList = suiteList("IMB-P2P", p2p.Names, func() (out []string) {
	for _, s := range p2p.Specs() {
		out = append(out, s.Summary)
	}
	return out
})

func runP2P(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseP2P(args)
	c := &session.Command{Name: "imb-p2p", Suite: p2p.Suite, Level: kernel.NoThreadInit, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: p2pUsage.write, List: p2pList, Listing: cfg.list}
	return measure.Run(c, perr, stdout, stderr, p2pjob.New(cfg.CL, "gomb "+version))
}
