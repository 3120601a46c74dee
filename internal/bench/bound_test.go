package bench

import (
	"slices"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// TestBoundSamples: above the bound a record keeps the samples of rank 0,
// the slowest, the fastest and random others (8 ranks in all, the same
// ones for the same seed), and every rank's summary; at or below it, all.
func TestBoundSamples(t *testing.T) {
	assemble := func(n int, bound int, seed uint64) *result.Result {
		const stride = NSlots
		vals := make([]float64, n*stride)
		samples := make([][]float64, n)
		var ranks []int
		for w := range n {
			v := NewSlots(stride, 4)
			mean := 1e-6 * float64(10+w%7)
			switch w {
			case 41:
				mean = 3e-5 // slowest
			case 77:
				mean = 1e-7 // fastest
			}
			v[SlotTime] = mean
			copy(vals[w*stride:], v)
			samples[w] = []float64{mean / 2, mean, mean, 2 * mean}
			ranks = append(ranks, w)
		}
		a := Assembly{Stride: stride, Samples: samples, Scale: 1e6, Bound: bound, Seed: seed,
			MeanUS: func(v []float64) float64 { return v[SlotTime] * 1e6 }}
		r := &result.Result{Benchmark: "Allreduce", Bytes: 8}
		a.Assemble(r, vals, ranks)
		return r
	}
	kept := func(r *result.Result) []int {
		var k []int
		for i, s := range r.SamplesUS {
			if len(s) > 0 {
				k = append(k, r.Ranks[i])
			}
		}
		return k
	}
	r := assemble(100, AutoSampleRanks, 7)
	k := kept(r)
	if len(k) != SampledRanks+3 || r.SamplesKept != len(k) || !slices.Contains(k, 0) || !slices.Contains(k, 41) || !slices.Contains(k, 77) {
		t.Errorf("kept the samples of ranks %v (samples_kept %d), want 8 with 0, 41 and 77", k, r.SamplesKept)
	}
	if len(r.RankMinUS) != 100 || r.RankMinUS[41] != 15 || r.RankMaxUS[41] != 60 || r.RankP50US[41] != 30 || r.RankP99US[77] < 0.19 {
		t.Errorf("summaries: min %v max %v p50 %v p99 %v", r.RankMinUS[41], r.RankMaxUS[41], r.RankP50US[41], r.RankP99US[77])
	}
	if r.TMaxUS != 30 || r.TMinUS < 0.0999 || r.TMinUS > 0.1001 || len(r.RankMeanUS) != 100 {
		t.Errorf("t_min %g t_max %g, %d means", r.TMinUS, r.TMaxUS, len(r.RankMeanUS))
	}
	if err := r.Validate(); err != nil {
		t.Errorf("a bounded record does not validate: %v", err)
	}
	if k2 := kept(assemble(100, AutoSampleRanks, 7)); !slices.Equal(k, k2) {
		t.Errorf("the same seed chose %v, then %v", k, k2)
	}
	for _, c := range []struct{ n, bound int }{{64, AutoSampleRanks}, {100, 0}} {
		r := assemble(c.n, c.bound, 7)
		if len(kept(r)) != c.n || r.SamplesKept != 0 || r.RankMinUS != nil {
			t.Errorf("%d ranks, bound %d: kept %d ranks' samples, samples_kept %d", c.n, c.bound, len(kept(r)), r.SamplesKept)
		}
	}
}
