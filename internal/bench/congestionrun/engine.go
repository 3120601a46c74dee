// Package congestionrun runs gomb congestion (package congestion) on
// MPI_COMM_WORLD: trial after trial, the canaries' tests alone and then
// with the congestors running, each measurement a loop entered once
// through package mpi; after each phase every canary's samples and every
// congestor's load to rank 0, which makes the rows.
package congestionrun

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Sink takes rank 0's rows.
type Sink interface {
	Result(*result.Result) error
}

// Engine runs a laid-out test. Every rank has the same Layout.
type Engine struct {
	Opt    congestion.Options
	World  mpi.Comm
	RunID  string
	Layout congestion.Layout
	// Sink and Progress are rank 0's (nil elsewhere); Progress is told
	// after each phase's rows.
	Sink     Sink
	Progress func(trial int, phase string)
	// Watch is told, on every rank, when a phase starts (a watchdog).
	Watch func(watchdog.Phase)
}

// comms are the communicators a rank takes part in (null where not).
type comms struct {
	global, canary, group mpi.Comm
	rings                 []mpi.Comm
}

func (c *comms) free() {
	for _, r := range c.rings {
		r.Free()
	}
	c.group.Free()
	c.canary.Free()
	c.global.Free()
}

// Run makes the communicators and the congestor, then runs the trials.
func (e *Engine) Run() error {
	me := e.World.Rank()
	role := e.Layout.RoleOf(me)
	var c comms
	defer c.free()
	in := -1
	if role.Canary >= 0 || role.Group >= 0 {
		in = 0
	}
	var err error
	if c.global, err = e.World.Split(in, me); err != nil {
		return err
	}
	color := func(on bool) int {
		if on {
			return 0
		}
		return -1
	}
	if c.canary, err = e.World.Split(color(role.Canary >= 0), role.Canary); err != nil {
		return err
	}
	rings := e.Opt.Rings
	if e.Opt.Seed == 0 {
		rings = 1 // every ring is the canaries' order
	}
	for m := range rings {
		key := 0
		if role.Canary >= 0 {
			key = slices.Index(congestion.Ring(len(e.Layout.Canaries), e.Opt.Seed, m), role.Canary)
		}
		ring, err := e.World.Split(color(role.Canary >= 0), key)
		if err != nil {
			return err
		}
		c.rings = append(c.rings, ring)
	}
	if c.group, err = e.World.Split(role.Group, role.Member); err != nil {
		return err
	}
	var cong *mpi.Congestor
	if role.Group >= 0 {
		g := e.Layout.Groups[role.Group]
		p, _ := congestion.PatternOf(g.Pattern)
		if cong, err = mpi.NewCongestor(c.group, c.global, p, int(e.Opt.CongBytes), e.Opt.BatchOf(len(g.Nodes)),
			e.Opt.PollS, e.Opt.CapS()); err != nil {
			return err
		}
		defer cong.Free()
	}
	for trial := range e.Opt.Trials {
		for _, phase := range []string{congestion.Isolated, congestion.Congested} {
			if err := e.phase(&c, role, cong, trial, phase); err != nil {
				return err
			}
			runtime.GC() // the collector is off while measuring; collect between phases
		}
	}
	return nil
}

// phase runs one phase on every rank, then brings its rows to rank 0.
func (e *Engine) phase(c *comms, role congestion.Role, cong *mpi.Congestor, trial int, phase string) error {
	if e.Watch != nil {
		e.Watch(watchdog.Phase{Bench: "congestion " + phase, NP: e.World.Size()})
	}
	samples := make([][]float64, len(congestion.Tests))
	measured := make([]float64, len(congestion.Tests))
	var load mpi.CongestorLoad
	var failed error
	switch {
	case role.Canary >= 0:
		failed = e.canaries(c, phase, samples, measured)
	case cong != nil && phase == congestion.Isolated:
		failed = cong.Isolated()
	case cong != nil:
		load, failed = cong.Congest()
	}
	// every rank agrees on a failure before anything more is exchanged;
	// the ranks that only waited wait without taking a core
	if err := mpi.QuietBarrier(e.World, e.Opt.PollS); err != nil {
		return err
	}
	bad := 0
	if failed != nil {
		bad = 1
	}
	bad, err := e.World.MaxInt(bad)
	if err != nil {
		return err
	}
	if bad != 0 {
		if failed == nil {
			failed = fmt.Errorf("trial %d, %s phase: another rank failed", trial+1, phase)
		}
		return failed
	}
	all := make([][][]float64, len(congestion.Tests))
	for t := range congestion.Tests {
		if all[t], err = e.World.GathervFloat64s(samples[t], 0); err != nil {
			return err
		}
	}
	loads, err := e.World.GathervFloat64s([]float64{load.Calls, load.Sent, load.Seconds}, 0)
	if err != nil || e.World.Rank() != 0 {
		return err
	}
	congestors := e.loads(phase, loads)
	now := time.Now()
	for t, test := range congestion.Tests {
		r := e.row(test, trial, phase, all[t], int(measured[t]), congestors, now)
		if err := e.Sink.Result(r); err != nil {
			return err
		}
	}
	if e.Progress != nil {
		e.Progress(trial, phase)
	}
	return nil
}

// canaries runs the canary tests of a phase (between the congestors'
// start and stop barriers when congested): each test's measurements, a
// ring each in turn, until its time is up; samples[t] gets every timed
// iteration, usec (the latency ring's halved, as GPCNeT reports it).
func (e *Engine) canaries(c *comms, phase string, samples [][]float64, measured []float64) error {
	o := &e.Opt
	if phase == congestion.Congested {
		if err := mpi.CanaryPhase(c.global); err != nil { // the congestors start
			return err
		}
	}
	for t, test := range congestion.Tests {
		scale := 1e6
		if test == congestion.RRLatency {
			scale = 0.5e6
		}
		start := time.Now()
		for m := 0; m < o.Measurements; m++ {
			var s []float64
			var err error
			switch test {
			case congestion.Allreduce:
				s, err = mpi.CanaryAllreduce(c.canary, o.Warmup(test), o.Iters(test))
			case congestion.RRBandwidth:
				s, err = mpi.CanaryRing(c.rings[m%len(c.rings)], int(o.BWBytes), o.BWInflight, true, o.Warmup(test), o.Iters(test))
			default:
				s, err = mpi.CanaryRing(c.rings[m%len(c.rings)], int(o.LatBytes), 1, false, o.Warmup(test), o.Iters(test))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", test, err)
			}
			for _, x := range s {
				samples[t] = append(samples[t], x*scale)
			}
			measured[t]++
			// GPCNeT's stop rule: no measurement starts after the test's
			// time, the canaries agreeing
			took, err := c.canary.MaxFloat64(time.Since(start).Seconds())
			if err != nil {
				return err
			}
			if took >= o.TestS {
				break
			}
		}
	}
	return mpi.CanaryPhase(c.global) // isolated: the congestors' wait ends; congested: they stop
}

// loads are the congestors' loads of a congested phase from every rank's
// [calls, sent, seconds].
func (e *Engine) loads(phase string, per [][]float64) []result.CongestorLoad {
	if phase != congestion.Congested {
		return nil
	}
	var out []result.CongestorLoad
	for _, g := range e.Layout.Groups {
		l := result.CongestorLoad{Pattern: g.Pattern, Hosts: e.Layout.Hosts(g.Nodes), Bytes: e.Opt.CongBytes}
		sent := 0.0
		for _, n := range g.Nodes {
			r := e.Layout.Nodes[n].Ranks[0]
			if len(per[r]) < 3 {
				continue
			}
			l.Calls = max(l.Calls, per[r][0])
			sent += per[r][1]
			l.Seconds = max(l.Seconds, per[r][2])
		}
		if l.Seconds > 0 {
			l.MBps = sent / l.Seconds / 1e6
		}
		out = append(out, l)
	}
	return out
}

// row is a test's row of a phase: every canary rank's samples (usec).
func (e *Engine) row(test string, trial int, phase string, all [][]float64, measurements int,
	congestors []result.CongestorLoad, now time.Time) *result.Result {
	o := &e.Opt
	canaries := e.Layout.Hosts(e.Layout.Canaries)
	r := &result.Result{Suite: congestion.Suite, Benchmark: test, NP: len(canaries), Groups: 1, Group: -1,
		Bytes: o.Bytes(test), RunID: e.RunID, Status: result.StatusOK, Time: now,
		Congestion: &result.Congestion{Trial: trial, Phase: phase, Canaries: canaries, Congestors: congestors, Measurements: measurements}}
	var pooled []float64
	r.TMinUS = -1
	for _, n := range e.Layout.Canaries {
		rank := e.Layout.Nodes[n].Ranks[0]
		s := all[rank]
		if len(s) == 0 {
			continue
		}
		mean := stats.Mean(s)
		r.Ranks = append(r.Ranks, rank)
		r.SamplesUS = append(r.SamplesUS, s)
		r.RankMeanUS = append(r.RankMeanUS, mean)
		if r.TMinUS < 0 || mean < r.TMinUS {
			r.TMinUS = mean
		}
		r.TMaxUS = max(r.TMaxUS, mean)
		pooled = append(pooled, s...)
		r.Repetitions = max(r.Repetitions, len(s))
	}
	r.TMinUS = max(r.TMinUS, 0)
	r.TAvgUS = stats.Mean(r.RankMeanUS)
	sorted := stats.Sorted(pooled)
	r.P50US, r.P90US, r.P99US = stats.Quantile(sorted, 0.5), stats.Quantile(sorted, 0.9), stats.Quantile(sorted, 0.99)
	r.Locality, r.HostCount = result.Locality(canaries)
	if test == congestion.RRBandwidth && r.TAvgUS > 0 {
		r.MBps = float64(o.IterBytes(test)) / r.TAvgUS // bytes/usec = MB/s, a rank
	}
	return r
}
