package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/bench/ringrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
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
	fs := newFlagSet("ring")
	cfg.opt.Register(fs)
	fs.StringVar(&cfg.prom, "prom", "", "`FILE` keep an OpenMetrics file for node_exporter's textfile collector, rewritten atomically after every sample")
	cfg.Flags.Register(fs)
	return fs
}

func parseRing(args []string) (*ringConfig, error) {
	cfg := newRingConfig()
	pos, err := parseFlags(ringFlags(cfg), args)
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
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		o := &cfg.opt
		if o.MemCopyLocal && s.Size != 1 {
			return s.Fail(cli.Usage("--mem-copy-local needs exactly one process, %d started", s.Size))
		}
		mon, err := newRingMonitor(s, o)
		if err != nil {
			return s.Fail(err)
		}
		if err := s.Agree(func() string { return checkProm(cfg.prom) }); err != nil {
			return s.Fail(err)
		}
		text, run, err := session.Open(s, o, stdout, ringtext.NewWriter)
		if err != nil {
			return s.Fail(err)
		}
		stopping, wait, undo := s.StopOnSignal()
		defer undo()
		mon.Stop, mon.Wait = stopping, wait
		mon.Watch = s.Watch(0)
		var tracker *ring.Tracker
		var hosts []string
		if s.Rank == 0 {
			hosts = session.Hosts(run)
			tracker = ring.NewTracker(o.MsgSize)
		}
		if err := s.OnRoot(func() error { return text.Header(*o) }); err != nil {
			return s.Fail(err)
		}
		debug.SetGCPercent(-1) // the monitor collects between samples
		defer debug.SetGCPercent(100)
		stopped, err := mon.Run(func(smp ring.Sample) error {
			tracker.Add(smp)
			r := ring.Record(s.RunID(), o.MsgSize, smp, hosts)
			if err := s.Result(r, func(*result.Result) error { return text.Sample(smp) }); err != nil {
				return err
			}
			if cfg.prom != "" {
				return ringtext.Prom(cfg.prom, smp, tracker.Summary(hosts), o.MsgSize, hosts)
			}
			return nil
		})
		if err != nil {
			return s.Abort(err)
		}
		if s.Rank == 0 {
			return endRing(s, text, tracker.Summary(hosts), stopped)
		}
		return nil
	})
}

// newRingMonitor makes the ring's monitor, on the GPU --gpu names.
func newRingMonitor(s *session.Session, o *ring.Options) (*ringrun.Monitor, error) {
	mon := &ringrun.Monitor{Opt: *o, World: s.World, Fault: s.Fault}
	if o.GPU {
		dev, err := s.OpenDevice("--gpu", true)
		if err != nil {
			return nil, err
		}
		mon.Device = dev
	}
	return mon, nil
}

// endRing prints the summary and ends the records (rank 0): complete, or
// interrupted when the ranks agreed to stop on a signal (rank 0's own
// may not have come yet when another rank's did).
func endRing(s *session.Session, text *ringtext.Writer, sum ring.Summary, stopped bool) error {
	_ = text.Summary(sum, s.Size)
	status := result.EndComplete
	if stopped {
		status = result.EndInterrupted
	}
	if err := s.End(status, sum); err != nil {
		return fmt.Errorf("gomb ring: %w", err) // rank 0 alone: the others have ended
	}
	return nil
}

// checkProm says what is wrong with --prom FILE, before the first sample.
func checkProm(path string) string {
	if path == "" {
		return ""
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Sprintf("--prom %s is a directory", path)
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return fmt.Sprintf("--prom: %v", err)
	}
	return ""
}
