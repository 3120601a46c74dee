// Package mtrun is the IMB-MT engine: a team of threads on every rank
// (package mpi's MT, C loops on OpenMP threads, each thread with its own
// communicator) runs each benchmark of package mt once per element
// count; every rank's smallest, largest and summed thread time, its
// results and its threads' samples go to rank 0, which hands IMB-MT's
// rows to a Sink.
package mtrun

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Sink receives, on rank 0 only, what the engine measures, in order.
type Sink interface {
	// Table opens a benchmark's table: np ranks with a result, threads a
	// rank; NoResults says no thread of any rank ran it (IMB-MT's "NO
	// SUCCESSFUL EXECUTIONS").
	Table(s *mt.Spec, np, threads, window int) error
	NoResults(s *mt.Spec) error
	Result(r *result.Result) error
}

// Engine runs IMB-MT's benchmarks on MPI_COMM_WORLD.
type Engine struct {
	Opt   mt.Options
	Team  *mpi.MT
	World mpi.Comm
	Hosts []string
	RunID string
	Sink  Sink // rank 0
	// Progress is told, on rank 0, when each count is done; optional.
	Progress func(s *mt.Spec, bytes int64)
	Watch    func(watchdog.Phase)
	// Fault is what GOMB_FAULT injects (a refused MPI call); nil: none.
	Fault *bench.Fault
	// Contain, when set, is asked after each benchmark how its end goes
	// on (bench.Contain); without it the first error ends the run.
	Contain bench.Contain
	// CheckFailures counts the rows whose -check found wrong data (rank 0).
	CheckFailures int
}

// What each rank reports for a count.
const (
	vMin = iota // smallest thread time, s (a thread without a result: 0)
	vMax
	vSum
	vResults
	vFailures
	nVals
)

// Run measures the benchmarks in order; it returns at the first MPI error
// (past those Contain lets go).
func (e *Engine) Run(specs []*mt.Spec) error {
	o := &e.Opt
	threads := e.Team.Threads()
	tsize := int64(o.Type.Size())
	maxCount := 0
	for _, c := range o.Counts {
		maxCount = max(maxCount, c)
	}
	for _, s := range specs {
		err := e.benchmark(s, tsize*int64(maxCount), threads)
		if e.Contain != nil {
			err = e.Contain(s.Name, err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// benchmark runs every count of s; most is the largest count's bytes.
func (e *Engine) benchmark(s *mt.Spec, most int64, threads int) error {
	o := &e.Opt
	// IMB-MT allocates a benchmark's buffers once, for its largest count
	a, b := most, most
	if s.RecvTwice {
		b *= 2
	}
	if err := e.Team.Buffers(a, b, o.MallocAlign, o.MallocAlgo, o.Window, o.Repeat); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	first := true
	for _, count := range o.CountsOf(s) {
		if err := e.count(s, count, threads, first); err != nil {
			return fmt.Errorf("%s, count %d: %w", s.Name, count, err)
		}
		first = false
		runtime.GC() // the collector is off while measuring
	}
	return nil
}

func (e *Engine) count(s *mt.Spec, count, threads int, first bool) error {
	o := &e.Opt
	bytes := int64(count) * int64(o.Type.Size()) * int64(threads)
	if e.Watch != nil {
		e.Watch(watchdog.Phase{Bench: s.Name, NP: e.World.Size(), Bytes: bytes})
	}
	if e.Fault.MPIErrorAt(s.Name, bytes, e.World.Rank()) {
		return mpi.InjectError(e.World)
	}
	ths, err := e.Team.Run(kernel.MTCall{Op: s.Op, Count: count, Type: o.Type, Warmup: o.Warmup, Repeat: o.Repeat,
		Stride: o.Stride, Window: o.Window, Barrier: o.Barrier, Check: o.Check, Record: !o.NoSamples})
	if err != nil {
		return err
	}
	mine := []float64{1e6, 0, 0, 0, 0}
	var samples []float64
	div := float64(o.Repeat) * s.Divide
	if s.Window {
		div *= float64(o.Window)
	}
	for _, t := range ths {
		mine[vMin], mine[vMax] = min(mine[vMin], t.Seconds), max(mine[vMax], t.Seconds)
		mine[vSum] += t.Seconds
		if t.Result {
			mine[vResults]++
			for _, x := range t.Samples {
				samples = append(samples, x/s.Divide*1e6/windowOf(s, o))
			}
		}
		mine[vFailures] += float64(t.Failures)
	}
	vals, err := e.World.GatherFloat64s(mine, 0)
	if err != nil {
		return err
	}
	all, err := e.World.GatherFloat64v(samples, 0)
	if err != nil || e.World.Rank() != 0 {
		return err
	}
	tMin, tMax, tSum, results, failures := math.Inf(1), 0.0, 0.0, 0, 0.0
	r := &result.Result{Suite: mt.Suite, Benchmark: s.Name, Groups: 1, Group: -1, Bytes: bytes, Repetitions: o.Repeat,
		RunID: e.RunID, Status: result.StatusOK, Time: time.Now(), Ranks: []int{}, RankMeanUS: []float64{}, SamplesUS: [][]float64{}}
	var hosts []string
	for w := 0; w*nVals < len(vals); w++ {
		v := vals[w*nVals : (w+1)*nVals]
		tMin, tMax, tSum = min(tMin, v[vMin]), max(tMax, v[vMax]), tSum+v[vSum]
		results += int(v[vResults])
		failures += v[vFailures]
		if v[vResults] > 0 {
			r.Ranks = append(r.Ranks, w)
			r.RankMeanUS = append(r.RankMeanUS, 1e6*v[vSum]/v[vResults]/div)
			ss := make([]float64, len(all[w]))
			for i, x := range all[w] {
				ss[i] = math.Round(x*1e4) / 1e4
			}
			r.SamplesUS = append(r.SamplesUS, ss)
			if w < len(e.Hosts) {
				hosts = append(hosts, e.Hosts[w])
			}
		}
	}
	r.NP = results / max(threads, 1)
	r.Locality, r.HostCount = result.Locality(hosts)
	r.Precision = bench.Precision(r.SamplesUS)
	if o.Check {
		r.Check = &result.Check{Passed: failures == 0, Defects: int64(failures)}
		if failures > 0 {
			r.Check.Detail = fmt.Sprintf("%d ints differ over the ranks' threads", int64(failures))
		}
	}
	if first {
		if results == 0 {
			return e.Sink.NoResults(s)
		}
		if err := e.Sink.Table(s, r.NP, threads, o.Window); err != nil {
			return err
		}
	}
	if results == 0 {
		return nil // IMB-MT prints nothing more for a count without results
	}
	if r.Check != nil && !r.Check.Passed {
		e.CheckFailures++
	}
	r.TMinUS, r.TMaxUS, r.TAvgUS, r.MBps, r.MsgPerSec = s.Row(tMin, tMax, tSum, results, threads, o.Repeat, o.Window, bytes)
	if err := e.Sink.Result(r); err != nil {
		return err
	}
	if e.Progress != nil {
		e.Progress(s, bytes)
	}
	return nil
}

// windowOf is the window the times of s are divided by (1 where none).
func windowOf(s *mt.Spec, o *mt.Options) float64 {
	if s.Window {
		return float64(o.Window)
	}
	return 1
}
