// Package p2prun is the IMB-P2P engine: it runs the benchmarks of package
// p2p over all the processes started, a size at a time, through their C
// kernel (one cgo call per size: pause, barrier, warm-up, barrier, timed
// loop, pause, barrier), gathers every rank's loop time, message count
// and samples to rank 0 and hands the rows, computed as IMB-P2P computes
// them, to a Sink.
package p2prun

import (
	"fmt"
	"runtime"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Sink receives, on rank 0 only, what the engine measures, in order.
type Sink interface {
	Table(s *p2p.Spec, np int) error
	Invalid(s *p2p.Spec, np int) error
	Result(r *result.Result) error
}

// Engine runs IMB-P2P's benchmarks on MPI_COMM_WORLD.
type Engine struct {
	Opt   p2p.Options
	World mpi.Comm
	Hosts []string // host of every world rank
	RunID string
	Sink  Sink // rank 0
	// Progress is told, on rank 0, when each size is done; optional.
	Progress func(s *p2p.Spec, size int64)
	// Watch is told, on every rank, what runs next; optional.
	Watch func(watchdog.Phase)
	// Fault is what GOMB_FAULT injects (a refused MPI call); nil: none.
	Fault *bench.Fault
	// Contain, when set, is asked after each benchmark how its end goes
	// on (bench.Contain); without it the first error ends the run.
	Contain bench.Contain
}

// The slots each rank reports for a size, after bench's.
const (
	slotMsgs = bench.NSlots + iota
	nSlots
)

// Run measures the benchmarks in order. It returns at the first MPI
// error (past those Contain lets go); the rows measured before it have
// been handed to the Sink.
func (e *Engine) Run(specs []*p2p.Spec) error {
	job, err := mpi.NewJob()
	if err != nil {
		return err
	}
	defer job.Free()
	job.SetBuffers(kernel.BuffersIMB) // IMB-P2P's buffers come from MPI_Alloc_mem
	if err := job.Bind(e.World); err != nil {
		return err
	}
	ranks := make([]int, e.World.Size())
	for i := range ranks {
		ranks[i] = i
	}
	o := &e.Opt
	maxSize, nMax := max(o.MaxSize(), 1), 1
	for _, size := range o.Sizes {
		n, _ := o.Iterations(size)
		nMax = max(nMax, n)
	}
	for _, s := range specs {
		err := e.benchmark(job, s, maxSize, nMax, ranks)
		if e.Contain != nil {
			err = e.Contain(s.Name, err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// benchmark runs every size of s, or says it cannot run with this many
// processes; maxSize and nMax size the buffers and samples.
func (e *Engine) benchmark(job *mpi.Job, s *p2p.Spec, maxSize int64, nMax int, ranks []int) error {
	o := &e.Opt
	np, me := len(ranks), e.World.Rank()
	if !s.Runs(np) {
		if me == 0 {
			return e.Sink.Invalid(s, np)
		}
		return nil
	}
	if me == 0 {
		if err := e.Sink.Table(s, np); err != nil {
			return err
		}
	}
	p := kernel.Params{Kernel: kernel.IMBP2P, Type: kernel.Byte,
		P2P: kernel.P2P{Op: s.Op, PauseUS: o.PauseUS, TouchSend: o.MsgWr, TouchRecv: o.MsgRd, Stride: maxSize}}
	if s.Grid != nil {
		_, p.P2P.Neighbours, _ = s.Grid(np, me)
	}
	// IMB-P2P allocates a benchmark's buffers once, for the largest size
	bytes := maxSize * int64(s.Buffers)
	if err := job.Reserve(bytes, bytes, nMax, me); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	defer job.Release()
	for _, size := range o.Sizes {
		if err := e.size(job, s, p, size, ranks); err != nil {
			return fmt.Errorf("%s, %d bytes: %w", s.Name, size, err)
		}
		runtime.GC() // the collector is off while measuring; the size's garbage goes now
	}
	return nil
}

// size runs one size of s and reports its row.
func (e *Engine) size(job *mpi.Job, s *p2p.Spec, p kernel.Params, size int64, ranks []int) error {
	o := &e.Opt
	np := len(ranks)
	n, warm := o.Iterations(size)
	if e.Watch != nil {
		e.Watch(watchdog.Phase{Bench: s.Name, NP: np, Bytes: size, Ranks: ranks})
	}
	if e.Fault.MPIErrorAt(s.Name, size, e.World.Rank()) {
		return mpi.InjectError(e.World)
	}
	p.Count, p.Skip = int(size), warm
	job.Set(p)
	el, err := job.Run(n, !o.NoSamples)
	if err != nil {
		return err
	}
	mine := bench.NewSlots(nSlots, n)
	mine[bench.SlotTime], mine[slotMsgs] = el, job.Messages()
	vals, err := e.World.GatherFloat64s(mine, 0)
	if err != nil {
		return err
	}
	samples, err := e.World.GatherSamples(job, true, 0)
	if err != nil || e.World.Rank() != 0 {
		return err
	}
	r := &result.Result{Suite: p2p.Suite, Benchmark: s.Name, NP: np, Groups: 1, Group: -1, Bytes: size, RunID: e.RunID}
	bench.Assembly{Stride: nSlots, Hosts: e.Hosts, Samples: samples, Scale: 1e6,
		MeanUS: func(v []float64) float64 { return v[bench.SlotTime] / float64(n) * 1e6 }}.Assemble(r, vals, ranks)
	times, msgs := make([]float64, np), make([]float64, np)
	for w := range ranks {
		times[w], msgs[w] = vals[w*nSlots+bench.SlotTime], vals[w*nSlots+slotMsgs]
	}
	// The row is IMB-P2P's: its t for all three times, the ranks' own
	// loop times per iteration in rank_mean_us and the samples.
	t, mbps, rate := s.Row(size, n, np, times, msgs)
	r.TMinUS, r.TMaxUS, r.TAvgUS, r.MBps, r.MsgPerSec = t, t, t, mbps, rate
	r.Repetitions = n
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	if err := e.Sink.Result(r); err != nil {
		return err
	}
	if e.Progress != nil {
		e.Progress(s, size)
	}
	return nil
}
