package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/bench/ringrun"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

const ringUsageText = `Usage: mpirun -np N gomb ring [flags]

A continuous ring monitor, as mpi-comm-bench: every interval, after a
barrier, rank i sends --msg-size bytes to rank i+1 and receives from rank
i-1 in one timed MPI_Sendrecv. Each sample prints the bandwidth (send +
recv, GB = 10^9 bytes) and the duration, min/max/avg over the ranks. It runs
until SIGINT or SIGTERM (or --count samples), then prints a summary — median
and p99 of the slowest rank, and the rank most often slowest (a straggler) —
and exits 0. The first sample includes connection set-up: it is printed
apart and kept out of the summary.

Flags:
  --msg-size B          bytes per message (1048576; 1e6, 64k, 4m accepted)
  --interval S          seconds between samples (1)
  --count N             stop after N samples besides the cold one (0: run until stopped)
  --mem-copy-local      with one rank: memcpy (cudaMemcpy with --gpu) instead of MPI
  --gpu                 buffers in GPU memory (CUDA runtime loaded at run time);
                        staged through host memory if the MPI library is not CUDA-aware
  --prom FILE           keep an OpenMetrics file for node_exporter's textfile
                        collector, rewritten atomically after every sample
  -json FILE, -o FILE   JSON Lines records: one per sample, the summary in the end record
` + archiveHelp + `` + watchHelp + `
Examples:
  mpirun -np 8 gomb ring
  mpirun -np 64 gomb ring --msg-size 64m --interval 10 --prom /var/lib/node_exporter/ring.prom
  mpirun -np 2 gomb ring --count 100 --interval 0.01 -json ring.jsonl
  mpirun -np 1 gomb ring --mem-copy-local --gpu
`

type ringConfig struct {
	opt   ring.Options
	rec   recordFlags
	watch watchFlags
	prom  string
}

func parseRing(args []string) (*ringConfig, error) {
	cfg := &ringConfig{opt: ring.DefaultOptions()}
	o := &cfg.opt
	fs := flag.NewFlagSet("gomb ring", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Func("msg-size", "", func(s string) error {
		if v, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "kKmM") {
			if v < 0 || v > 1<<40 || v != math.Trunc(v) {
				return fmt.Errorf("want a whole number of bytes, got %q", s)
			}
			o.MsgSize = int64(v)
			return nil
		}
		v, err := parseBytes(s)
		o.MsgSize = v
		return err
	})
	fs.Float64Var(&o.IntervalS, "interval", o.IntervalS, "")
	fs.IntVar(&o.Count, "count", 0, "")
	fs.BoolVar(&o.MemCopyLocal, "mem-copy-local", false, "")
	fs.BoolVar(&o.GPU, "gpu", false, "")
	fs.StringVar(&cfg.prom, "prom", "", "")
	cfg.rec.register(fs)
	cfg.watch.register(fs)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return cfg, err
	}
	if err != nil {
		return cfg, usageErr("%v ('gomb ring -help' lists the flags)", strings.TrimPrefix(err.Error(), "flag: "))
	}
	switch {
	case len(pos) > 0:
		return cfg, usageErr("unexpected argument %q", pos[0])
	case !(o.IntervalS >= 0) || o.IntervalS > 86400:
		return cfg, usageErr("--interval must be between 0 and 86400 seconds, got %g", o.IntervalS)
	case o.Count < 0:
		return cfg, usageErr("--count must not be negative")
	case o.MsgSize > math.MaxInt32:
		return cfg, usageErr("--msg-size %d is above what one MPI call sends (%d)", o.MsgSize, math.MaxInt32)
	}
	return cfg, nil
}

func runRing(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseRing(args)
	if early(perr, false, stdout, func(w io.Writer) { fmt.Fprint(w, ringUsageText) }, nil) {
		return nil
	}
	ss, err := startSession("ring", kernel.NoThreadInit, stderr)
	if err != nil {
		return err
	}
	defer ss.close()
	if perr != nil {
		return ss.fail(perr)
	}
	o := &cfg.opt
	if o.MemCopyLocal && ss.size != 1 {
		return ss.fail(usageErr("--mem-copy-local needs exactly one process, %d started", ss.size))
	}
	mon := &ringrun.Monitor{Opt: *o, World: ss.world}
	if o.GPU {
		dev, err := ss.openDevice("--gpu", true)
		if err != nil {
			return ss.fail(err)
		}
		mon.Device = dev
	}
	if err := ss.agree(func() string {
		if cfg.prom == "" {
			return ""
		}
		if st, err := os.Stat(cfg.prom); err == nil && st.IsDir() {
			return fmt.Sprintf("--prom %s is a directory", cfg.prom)
		}
		if _, err := os.Stat(dirOf(cfg.prom)); err != nil {
			return fmt.Sprintf("--prom: %v", err)
		}
		return ""
	}); err != nil {
		return ss.fail(err)
	}
	textOut, err := ss.openRecords(&cfg.rec, stdout, stderr)
	if err != nil {
		return ss.fail(err)
	}
	text := ringtext.NewWriter(textOut)
	ss.out.flush = text.Flush
	run, err := ss.provenance("ring", args, o)
	if err != nil {
		return ss.fail(err)
	}

	stopping, wait, undo := ss.stopOnSignal()
	defer undo()
	mon.Stop, mon.Wait = stopping, wait
	mon.Watch = ss.watch(cfg.watch, 0)

	var tracker *ring.Tracker
	var hostList []string
	if ss.rank == 0 {
		hostList = hosts(run)
		tracker = ring.NewTracker(o.MsgSize)
	}
	if err := ss.onRoot(func() error { return text.Header(*o) }); err != nil {
		return ss.fail(err)
	}
	debug.SetGCPercent(-1) // the monitor collects between samples
	defer debug.SetGCPercent(100)
	stopped, err := mon.Run(func(s ring.Sample) error {
		tracker.Add(s)
		r := ring.Record(ss.out.runID, o.MsgSize, s, hostList)
		if err := ss.out.result(r, func(*result.Result) error { return text.Sample(s) }); err != nil {
			return err
		}
		if cfg.prom != "" {
			return ringtext.Prom(cfg.prom, s, tracker.Summary(hostList), o.MsgSize, hostList)
		}
		return nil
	})
	if err != nil {
		return ss.abort(err)
	}
	if ss.rank == 0 {
		sum := tracker.Summary(hostList)
		_ = text.Summary(sum, ss.size)
		// the ranks agreed to stop: rank 0's own signal may not have
		// come yet when another rank's did
		status := result.EndComplete
		if stopped {
			status = result.EndInterrupted
		}
		ss.out.endWith(status, "", "", sum, false)
	}
	return nil
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		if i == 0 {
			return "/"
		}
		return path[:i]
	}
	return "."
}
