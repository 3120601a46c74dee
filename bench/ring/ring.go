// Package ring is the continuous ring monitor (what mpi-comm-bench does):
// every interval, rank i sends msg bytes to rank i+1 and receives from rank
// i-1 in one timed MPI_Sendrecv after a barrier; per sample the bandwidth
// (send + receive, GB = 10^9 bytes) and the duration of every rank. It runs
// until told to stop or for a given count, then summarises: median and p99,
// and the rank most often slowest (a straggler). The first sample includes
// connection set-up and is kept apart from the statistics.
package ring

import (
	"math"
	"runtime"
	"time"

	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/kernel"
	"github.com/gomb-hpc/gomb/mpi"
	"github.com/gomb-hpc/gomb/stats"
	"github.com/gomb-hpc/gomb/watchdog"
)

// Options are the monitor's settings.
type Options struct {
	MsgSize      int64   `json:"msg_size"`       // bytes per message
	IntervalS    float64 `json:"interval_s"`     // seconds between samples
	Count        int     `json:"count"`          // samples to take after the cold one; 0: until stopped
	MemCopyLocal bool    `json:"mem_copy_local"` // one rank: memcpy instead of MPI
	GPU          bool    `json:"gpu"`            // buffers in GPU memory
}

// DefaultOptions are mpi-comm-bench's: 1 MiB every second.
func DefaultOptions() Options { return Options{MsgSize: 1 << 20, IntervalS: 1} }

// Sample is one measurement of every rank.
type Sample struct {
	Index int       // 0 for the cold sample
	Cold  bool      // the first sample, with connection set-up
	Time  time.Time // when it was taken
	DurS  []float64 // each rank's duration, seconds
	// Over the ranks: bandwidth (send + receive, GB/s) and duration (s).
	MinGBps, MaxGBps, AvgGBps float64
	MinS, MaxS, AvgS          float64
	Slowest                   int // rank with the longest duration
}

// GBps is the ring bandwidth of a rank that moved msg bytes each way in
// dt seconds: 2*msg/dt/1e9.
func GBps(msg int64, dt float64) float64 {
	if dt <= 0 {
		return 0
	}
	return 2 * float64(msg) / dt / 1e9
}

// NewSample summarises one sample's per-rank durations.
func NewSample(index int, msg int64, dur []float64, at time.Time) Sample {
	s := Sample{Index: index, Cold: index == 0, Time: at, DurS: dur}
	s.MinS, s.MaxS = stats.MinMax(dur)
	s.AvgS = stats.Mean(dur)
	bw := make([]float64, len(dur))
	for i, d := range dur {
		bw[i] = GBps(msg, d)
		if d > dur[s.Slowest] {
			s.Slowest = i
		}
	}
	s.MinGBps, s.MaxGBps = stats.MinMax(bw)
	s.AvgGBps = stats.Mean(bw)
	return s
}

// Summary is what a run of samples says, the cold sample excluded.
type Summary struct {
	Samples int `json:"samples"` // warm samples
	// Duration of the slowest rank per sample: median and 99th percentile,
	// seconds; the ring moves at the pace of its slowest rank.
	MedianS float64 `json:"median_s"`
	P99S    float64 `json:"p99_s"`
	// The same as bandwidth (send + receive, GB/s): median, and the 1st
	// percentile (the slow tail).
	MedianGBps float64 `json:"median_gbps"`
	P01GBps    float64 `json:"p01_gbps"`
	// Cold is the first sample's slowest duration, seconds.
	ColdS float64 `json:"cold_s"`
	// Straggler: the rank most often slowest and in how many samples.
	Straggler      int    `json:"straggler_rank"`
	StragglerHost  string `json:"straggler_host"`
	StragglerCount int    `json:"straggler_count"`
	// Expected is how often any rank would be slowest by chance
	// (samples / ranks).
	Expected float64 `json:"expected_count"`
}

// maxKept bounds the per-sample durations a Tracker keeps (about 8 MB);
// past it the oldest go, so a monitor can run for months.
const maxKept = 1 << 20

// Tracker accumulates what the summary needs, sample by sample, without
// keeping every rank's durations.
type Tracker struct {
	msg     int64
	slow    []float64 // the slowest rank's duration of each warm sample
	counts  map[int]int
	ranks   int
	samples int
	coldS   float64
}

// NewTracker starts a summary for messages of msg bytes.
func NewTracker(msg int64) *Tracker { return &Tracker{msg: msg, counts: map[int]int{}} }

// Add takes one sample into account.
func (t *Tracker) Add(s Sample) {
	if s.Cold {
		t.coldS = s.MaxS
		return
	}
	if len(t.slow) == maxKept {
		t.slow = append(t.slow[:0], t.slow[1:]...)
	}
	t.slow = append(t.slow, s.MaxS)
	t.counts[s.Slowest]++
	t.ranks = len(s.DurS)
	t.samples++
}

// Summary summarises the warm samples so far; hosts names each rank's host.
func (t *Tracker) Summary(hosts []string) Summary {
	sum := Summary{Samples: t.samples, ColdS: t.coldS, Straggler: -1}
	if len(t.slow) == 0 {
		sum.MedianS, sum.P99S = math.NaN(), math.NaN()
		return sum
	}
	sorted := stats.Sorted(t.slow)
	sum.MedianS = stats.Quantile(sorted, 0.5)
	sum.P99S = stats.Quantile(sorted, 0.99)
	sum.MedianGBps = GBps(t.msg, sum.MedianS)
	sum.P01GBps = GBps(t.msg, sum.P99S)
	for r, c := range t.counts {
		if c > sum.StragglerCount || (c == sum.StragglerCount && r < sum.Straggler) {
			sum.Straggler, sum.StragglerCount = r, c
		}
	}
	if sum.Straggler >= 0 && sum.Straggler < len(hosts) {
		sum.StragglerHost = hosts[sum.Straggler]
	}
	sum.Expected = float64(t.samples) / float64(max(t.ranks, 1))
	return sum
}

// Monitor takes samples on MPI_COMM_WORLD.
type Monitor struct {
	Opt    Options
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
}

// Run takes samples until stopped or Count warm samples are done, giving
// each one (on rank 0) to emit.
func (m *Monitor) Run(emit func(Sample) error) error {
	job, err := mpi.NewJob()
	if err != nil {
		return err
	}
	defer job.Free()
	if err := job.Bind(m.World); err != nil {
		return err
	}
	k := kernel.Ring
	if m.Opt.MemCopyLocal {
		k = kernel.Memcpy
	}
	job.Set(kernel.Params{Kernel: k, Type: kernel.Byte, Count: int(m.Opt.MsgSize)})
	job.SetBuffers(kernel.BuffersMalloc) // mpi-comm-bench mallocs its buffers and never fills them
	if err := job.Reserve(m.Opt.MsgSize, m.Opt.MsgSize, 1, m.World.Rank()); err != nil {
		return err
	}
	if m.Device != nil {
		if err := m.Device.Attach(job); err != nil {
			return err
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
			m.Watch(watchdog.Phase{Bench: "ring", NP: m.World.Size(), Bytes: m.Opt.MsgSize, Ranks: ranks})
		}
		stop := 0
		if m.Stop() {
			stop = 1
		}
		if stop, err = m.World.MaxInt(stop); err != nil {
			return err
		}
		if stop != 0 {
			return nil
		}
		bench.HangIfAsked(m.Opt.MsgSize, m.World.Rank())
		dt, err := job.Run(1, false)
		if err != nil {
			return err
		}
		all, err := m.World.GatherFloat64s([]float64{dt}, 0)
		if err != nil {
			return err
		}
		if m.World.Rank() == 0 {
			if err := emit(NewSample(i, m.Opt.MsgSize, all, time.Now())); err != nil {
				return err
			}
		}
		runtime.GC() // the collector is off while sampling; collect between samples
	}
	return nil
}
