// Package ringrun takes the ring monitor's samples (package ring) on
// MPI_COMM_WORLD, its timed MPI_Sendrecv entered once per sample through
// package mpi.
package ringrun

import (
	"runtime"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
)

// Monitor takes samples on MPI_COMM_WORLD.
type Monitor struct {
	Opt    ring.Options
	World  mpi.Comm
	Device *mpi.Device // ring --gpu
	// Stop is polled on every rank before each sample; the ranks agree on
	// stopping (any rank asking stops all), so none is left in a barrier.
	Stop func() bool
	// Wait sleeps until the next sample is due; it returns early when the
	// monitor should stop.
	Wait func(d time.Duration)
	// Watch is told, on every rank, when a sample starts (a watchdog);
	// optional. The wait between samples is not part of a sample.
	Watch func(watchdog.Phase)
	// Fault is what GOMB_FAULT injects (a stuck rank: the watchdog's
	// tests); nil: none.
	Fault *bench.Fault
}

// Run takes samples until stopped or Count warm samples are done, giving
// each one (on rank 0) to emit. stopped is true on every rank when the
// ranks agreed to stop (a Stop on any of them), whichever rank was asked.
func (m *Monitor) Run(emit func(ring.Sample) error) (stopped bool, err error) {
	job, err := mpi.NewJob()
	if err != nil {
		return false, err
	}
	defer job.Free()
	if err := job.Bind(m.World); err != nil {
		return false, err
	}
	k := kernel.Ring
	if m.Opt.MemCopyLocal {
		k = kernel.Memcpy
	}
	job.Set(kernel.Params{Kernel: k, Type: kernel.Byte, Count: int(m.Opt.MsgSize)})
	job.SetBuffers(kernel.BuffersMalloc) // mpi-comm-bench mallocs its buffers and never fills them
	if err := job.Reserve(m.Opt.MsgSize, m.Opt.MsgSize, 1, m.World.Rank()); err != nil {
		return false, err
	}
	if m.Device != nil {
		if err := m.Device.Attach(job); err != nil {
			return false, err
		}
	}
	interval := time.Duration(m.Opt.IntervalS * float64(time.Second))
	ranks := make([]int, m.World.Size())
	for i := range ranks {
		ranks[i] = i
	}
	for i := 0; m.Opt.Count == 0 || i <= m.Opt.Count; i++ {
		if m.Watch != nil {
			m.Watch(watchdog.Phase{What: "sleep between samples", Idle: true})
		}
		m.Wait(interval) // mpi-comm-bench sleeps before every sample
		if m.Watch != nil {
			m.Watch(watchdog.Phase{Bench: ring.Name, NP: m.World.Size(), Bytes: m.Opt.MsgSize, Ranks: ranks})
		}
		stop := 0
		if m.Stop() {
			stop = 1
		}
		if stop, err = m.World.MaxInt(stop); err != nil {
			return false, err
		}
		if stop != 0 {
			return true, nil
		}
		m.Fault.HangIfAsked(m.Opt.MsgSize, m.World.Rank())
		dt, err := job.Run(1, false)
		if err != nil {
			return false, err
		}
		all, err := m.World.GatherFloat64s([]float64{dt}, 0)
		if err != nil {
			return false, err
		}
		if m.World.Rank() == 0 {
			if err := emit(ring.NewSample(i, m.Opt.MsgSize, all, time.Now())); err != nil {
				return false, err
			}
		}
		runtime.GC() // the collector is off while sampling; collect between samples
	}
	return false, nil
}
