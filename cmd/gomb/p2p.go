package main

import (
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/bench/p2prun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
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
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitWatchdog, cli.ExitSignal}, nil),
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

// p2pSink is rank 0's p2prun.Sink: IMB-P2P text plus records.
type p2pSink struct {
	s    *session.Session
	text *imbtext.P2PWriter
}

func (k p2pSink) Table(s *p2p.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Table(s.Title(np), np) })
}

func (k p2pSink) Invalid(s *p2p.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Invalid(s.InvalidLine(np)) })
}

func (k p2pSink) Result(r *result.Result) error { return k.s.Result(r, k.text.Result) }

func runP2P(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseP2P(args)
	c := &session.Command{Name: "imb-p2p", Suite: p2p.Suite, Level: kernel.NoThreadInit, Version: fullVersion(),
		Args: args, Flags: &cfg.Flags, Help: p2pUsage.write, List: p2pList, Listing: cfg.list}
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		var specs []*p2p.Spec
		for _, n := range cfg.CL.Names {
			sp, _ := p2p.Lookup(n)
			specs = append(specs, sp)
		}
		text, run, err := session.Open(s, cfg.CL.Options, stdout, imbtext.NewP2PWriter)
		if err != nil {
			return s.Fail(err)
		}
		defer s.OnSignal()()
		eng := &p2prun.Engine{Opt: cfg.CL.Options, World: s.World, RunID: s.RunID(),
			Watch: s.Watch(time.Duration(max(60, 2*float64(cfg.CL.PauseUS)/1e6+30)) * time.Second)}
		if err := s.OnRoot(func() error { return text.Preamble(p2pHeader(run, cfg)) }); err != nil {
			return s.Fail(err)
		}
		if s.Rank == 0 {
			eng.Hosts = session.Hosts(run)
			eng.Sink = p2pSink{s, text}
			rows := 0
			for _, sp := range specs {
				if sp.Runs(s.Size) {
					rows += len(cfg.CL.Sizes)
				}
			}
			if p := s.Progress(rows); p != nil {
				eng.Progress = func(sp *p2p.Spec, size int64) { p.Step(sp.Name, s.Size, size, true) }
			}
		}
		return s.Measure(func() (int, error) { return 0, eng.Run(specs) }, text.Footer, "")
	})
}

func p2pHeader(run *result.Run, cfg *p2pConfig) imbtext.P2PHeader {
	r0 := run.Ranks[0]
	return imbtext.P2PHeader{Tool: "gomb " + version + " (IMB-P2P 2021.11 compatible)", Date: run.Start,
		Machine: r0.Machine, System: "Linux", Release: r0.Kernel, Version: r0.KernelVersion, MPIVersion: run.MPI.Standard,
		Argv: run.Command, Benchmarks: cfg.CL.Names, MinSize: cfg.CL.MinSize(), MaxSize: cfg.CL.MaxSize()}
}
