// Package ring is the continuous ring monitor (what mpi-comm-bench does):
// every interval, rank i sends msg bytes to rank i+1 and receives from rank
// i-1 in one timed MPI_Sendrecv after a barrier; per sample the bandwidth
// (send + receive, GB = 10^9 bytes) and the duration of every rank. It runs
// until told to stop or for a given count, then summarises: median and p99,
// and the rank most often slowest (a straggler). The first sample includes
// connection set-up and is kept apart from the statistics.
//
// The package is plain Go (no cgo): options, samples, their statistics,
// records and the ring's traits; package ringrun takes the samples.
package ring

import (
	"math"
	"time"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
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
	// Without warm samples they have no value (NaN, null in JSON).
	MedianS result.Float `json:"median_s"`
	P99S    result.Float `json:"p99_s"`
	// The same as bandwidth (send + receive, GB/s): median, and the 1st
	// percentile (the slow tail).
	MedianGBps result.Float `json:"median_gbps"`
	P01GBps    result.Float `json:"p01_gbps"`
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
		nan := result.Float(math.NaN())
		sum.MedianS, sum.P99S, sum.MedianGBps, sum.P01GBps = nan, nan, nan, nan
		return sum
	}
	sorted := stats.Sorted(t.slow)
	med, p99 := stats.Quantile(sorted, 0.5), stats.Quantile(sorted, 0.99)
	sum.MedianS, sum.P99S = result.Float(med), result.Float(p99)
	sum.MedianGBps, sum.P01GBps = result.Float(GBps(t.msg, med)), result.Float(GBps(t.msg, p99))
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
