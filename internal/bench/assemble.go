package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Slots of the vector of numbers each rank reports for a size, gathered
// on rank 0. An engine appends slots of its own after NSlots.
const (
	// SlotTime is the rank's time in seconds (per repetition in the IMB
	// engine, for the whole loop in the OSU engine); below zero when the
	// rank did not time.
	SlotTime     = iota
	SlotReps     // repetitions run
	SlotBad      // -check: wrong elements found
	SlotFirstBad // -check: the index of the first
	SlotGot      // -check: its value
	SlotWant     // -check: the value expected there
	NSlots
)

// NewSlots is a rank's vector of n slots before it measures: no time,
// reps repetitions, no defects.
func NewSlots(n, reps int) []float64 {
	v := make([]float64, n)
	v[SlotTime], v[SlotReps], v[SlotFirstBad] = -1, float64(reps), -1
	return v
}

// Assembly is what Assemble needs besides the gathered vectors.
type Assembly struct {
	Stride  int         // slots per rank
	Hosts   []string    // host of each world rank
	Samples [][]float64 // per world rank, seconds per sample
	// MeanUS is a timing rank's mean time per repetition in microseconds,
	// from its slots; Scale turns its samples' seconds into microseconds
	// (both with the benchmark's factor: half a round trip, ...).
	MeanUS func(v []float64) float64
	Scale  float64
	Check  bool // -check ran: record its outcome
	// Parts are the world ranks whose data moves, whose hosts make the
	// locality; nil: the timing ranks. (osu_latency times on rank 0 alone,
	// but its messages cross to rank 1's host.)
	Parts []int
	// Bound, when above 0, is the most timing ranks whose samples are all
	// kept (-samples auto): above it the record keeps the samples of rank
	// 0, the slowest and the fastest rank and SampledRanks more chosen at
	// random (Seed), and every rank's summary (BoundSamples).
	Bound int
	Seed  uint64
}

// AutoSampleRanks is -samples auto's bound: up to this many timing ranks a
// record keeps every rank's samples (~7.5 bytes a sample: 64 ranks x 1,000
// repetitions is about 0.5 MB a result).
const AutoSampleRanks = 64

// SampledRanks is how many ranks beyond rank 0, the slowest and the
// fastest keep their samples when a record is bounded.
const SampledRanks = 5

// Assemble fills r with what the ranks (world ranks, in communicator
// order) reported in vals: the timing ranks, their mean times and samples
// in microseconds (samples to 4 decimals), the minimum, maximum and mean
// over them, repetitions, locality, precision and the -check outcome. It
// returns how many ranks timed; with none, the times are 0.
func (a Assembly) Assemble(r *result.Result, vals []float64, ranks []int) int {
	r.Status = result.StatusOK
	r.Time = time.Now()
	r.Ranks, r.RankMeanUS, r.SamplesUS = []int{}, []float64{}, [][]float64{}
	r.TMinUS, r.TMaxUS, r.TAvgUS = math.Inf(1), 0, 0
	var hosts []string
	var raw [][]float64 // the timing ranks' samples as measured: precision is a ratio, and rounding moves it
	var bad int64
	detail := ""
	for _, w := range ranks {
		v := vals[w*a.Stride : (w+1)*a.Stride]
		r.Repetitions = max(r.Repetitions, int(v[SlotReps]))
		if v[SlotBad] > 0 {
			if bad == 0 {
				detail = fmt.Sprintf("rank %d: %d wrong elements, first at element %d: got %g, want %g",
					w, int64(v[SlotBad]), int64(v[SlotFirstBad]), v[SlotGot], v[SlotWant])
			}
			bad += int64(v[SlotBad])
		}
		if v[SlotTime] < 0 {
			continue
		}
		mean := a.MeanUS(v)
		r.Ranks = append(r.Ranks, w)
		r.RankMeanUS = append(r.RankMeanUS, mean)
		raw = append(raw, a.Samples[w])
		ss := make([]float64, len(a.Samples[w]))
		for i, x := range a.Samples[w] {
			ss[i] = math.Round(x*a.Scale*1e4) / 1e4
		}
		r.SamplesUS = append(r.SamplesUS, ss)
		r.TMinUS = min(r.TMinUS, mean)
		r.TMaxUS = max(r.TMaxUS, mean)
		r.TAvgUS += mean
		if w < len(a.Hosts) {
			hosts = append(hosts, a.Hosts[w])
		}
	}
	if len(r.Ranks) == 0 {
		r.TMinUS = 0
	} else {
		r.TAvgUS /= float64(len(r.Ranks))
	}
	if a.Parts != nil {
		hosts = hosts[:0]
		for _, w := range a.Parts {
			if w < len(a.Hosts) {
				hosts = append(hosts, a.Hosts[w])
			}
		}
	}
	r.Locality, r.HostCount = result.Locality(hosts)
	// From the unrounded samples, as the engine's -iter_policy precision
	// decided: at 0.2 µs, rounding to 0.1 ns moves the ratio by ~3e-4,
	// enough to print a run that stopped at 9.99% as 10.00%.
	r.Precision = Precision(raw)
	if a.Bound > 0 && len(r.Ranks) > a.Bound {
		BoundSamples(r, a.Seed)
	}
	if a.Check {
		r.Check = &result.Check{Passed: bad == 0, Defects: bad, Detail: detail}
	}
	return len(r.Ranks)
}

// Precision is the widest, over the timing ranks, of the relative
// half-width of the 95% interval of a rank's median sample; nil when no
// rank has enough samples (8).
func Precision(samples [][]float64) *float64 {
	var widest *float64
	for _, s := range samples {
		if p := stats.MedianPrecision(s); !math.IsInf(p, 0) && !math.IsNaN(p) && (widest == nil || p > *widest) {
			widest = &p
		}
	}
	return widest
}

// BoundSamples keeps the samples of a bounded set of r's timing ranks —
// rank 0, the slowest and the fastest by mean, and ranks chosen at random
// (seed) up to SampledRanks+3 in all — and every rank's summary in their place: minimum,
// maximum, median and 99th percentile of its samples (RankMinUS ...; the
// mean is RankMeanUS). The other ranks' samples become empty. Precision
// stays what all the samples gave.
func BoundSamples(r *result.Result, seed uint64) {
	n := len(r.Ranks)
	if n == 0 || len(r.SamplesUS) != n {
		return
	}
	r.RankMinUS, r.RankMaxUS = make([]float64, n), make([]float64, n)
	r.RankP50US, r.RankP99US = make([]float64, n), make([]float64, n)
	for i, ss := range r.SamplesUS {
		if len(ss) == 0 {
			continue
		}
		sorted := slices.Clone(ss)
		slices.Sort(sorted)
		r.RankMinUS[i], r.RankMaxUS[i] = sorted[0], sorted[len(sorted)-1]
		r.RankP50US[i] = round4(stats.Quantile(sorted, 0.5))
		r.RankP99US[i] = round4(stats.Quantile(sorted, 0.99))
	}
	keep := map[int]bool{}
	slow, fast := 0, 0
	for i, m := range r.RankMeanUS {
		if r.Ranks[i] == 0 {
			keep[i] = true
		}
		if m > r.RankMeanUS[slow] {
			slow = i
		}
		if m < r.RankMeanUS[fast] {
			fast = i
		}
	}
	keep[slow], keep[fast] = true, true
	rng := rand.New(rand.NewPCG(seed, uint64(r.Bytes)))
	for _, i := range rng.Perm(n) {
		if len(keep) >= SampledRanks+3 {
			break
		}
		keep[i] = true
	}
	for i := range r.SamplesUS {
		if !keep[i] {
			r.SamplesUS[i] = []float64{}
		}
	}
	r.SamplesKept = len(keep)
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
