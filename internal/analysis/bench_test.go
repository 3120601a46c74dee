package analysis

import (
	"fmt"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// launches are n launches of a PingPong sweep (1 B-4 MiB) with raw
// samples, each scaled by a deterministic jitter.
func launches(n int, scale float64) []*result.Bundle {
	var runs []*result.Bundle
	for i := range n {
		j := 1 + 0.02*float64((i*7)%11-5)/5
		r := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(1*scale*j, 10000, one), func(x *result.Result) {
			x.Ranks, x.RankMeanUS = []int{0, 1}, []float64{x.TAvgUS, x.TAvgUS}
			s := make([]float64, 100)
			for k := range s {
				s[k] = x.TAvgUS * (1 + 0.01*float64(k%5))
			}
			x.SamplesUS = [][]float64{s, s}
		})
		r.Run.RunID = fmt.Sprint("launch-", scale, "-", i)
		runs = append(runs, r)
	}
	return runs
}

// BenchmarkCompareLaunches: compare's time against the launches a side
// (make bench-analysis).
func BenchmarkCompareLaunches(b *testing.B) {
	for _, n := range []int{5, 25, 50, 100, 200} {
		a, c := launches(n, 1), launches(n, 1.1)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Compare("a", a, "b", c, CompareOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExplainSizes: explain's time against the sizes of one table
// (make bench-analysis): a PingPong, a Sendrecv and an Allreduce of n
// sizes each, 8 bytes apart, their times ±25% about a line (a
// deterministic sequence), so that every rule has steps, spikes and
// inversions to read; near-linear in n.
func BenchmarkExplainSizes(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		run := noisySizes(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Explain(run, ExplainOptions{})
			}
		})
	}
}

// noisySizes is a run of three benchmarks of n sizes each (see
// BenchmarkExplainSizes).
func noisySizes(n int) *result.Bundle {
	run := &result.Bundle{Run: &result.Run{Suite: "imb", RunID: "sizes", WorldSize: 2}}
	seed := uint64(1)
	for _, bench := range []string{"PingPong", "Sendrecv", "Allreduce"} {
		var pts []pt
		for k := range n {
			seed = seed*6364136223846793005 + 1442695040888963407
			u := float64(seed>>11) / (1 << 53)
			bytes := int64(8 * (k + 1))
			t := (1 + float64(bytes)/10000) * (0.75 + 0.5*u)
			pts = append(pts, pt{bytes: bytes, tavg: t, tmax: 1.1 * t, tmin: 0.9 * t, bw: float64(bytes) / t})
		}
		run.Results = append(run.Results, mkRun("imb", bench, 2, result.IntraNode, pts, nil).Results...)
	}
	return run
}
