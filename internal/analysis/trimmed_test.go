package analysis

import (
	"math"
	"testing"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// TestTrimmed: where both sides kept raw samples, compare and check take
// each rank's 5%-trimmed mean, so one slow repetition in a thousand does
// not move a launch; where one side has none, the benchmark's own number.
func TestTrimmed(t *testing.T) {
	samples := func(hiccup float64) func(*result.Result) {
		return func(x *result.Result) {
			for r := 0; r < 2; r++ {
				s := make([]float64, 1000)
				for i := range s {
					s[i] = 1 + 0.01*float64(i%7)
				}
				s[500] = hiccup
				x.Ranks, x.SamplesUS = append(x.Ranks, r), append(x.SamplesUS, s)
				x.RankMeanUS = append(x.RankMeanUS, stats.Mean(s))
			}
			x.TAvgUS = stats.Mean(x.RankMeanUS)
			x.TMinUS, x.TMaxUS = x.TAvgUS, x.TAvgUS
		}
	}
	pts := []pt{{bytes: 8, tavg: 1}, {bytes: 16, tavg: 1}}
	calm := mkRun("imb", "Allreduce", 2, result.IntraNode, pts, samples(1))
	hiccup := mkRun("imb", "Allreduce", 2, result.IntraNode, pts, samples(1000)) // one repetition 1000×: t_avg doubles
	plain := mkRun("imb", "Allreduce", 2, result.IntraNode, []pt{{bytes: 8, tavg: 1.03}, {bytes: 16, tavg: 1.03}}, nil)

	c, err := Compare("a", []*result.Bundle{calm}, "b", []*result.Bundle{hiccup}, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Metric != TTrim || math.Abs(float64(r.Speed)-1) > 0.01 || r.BeyondNoise {
			t.Errorf("trimmed: %+v", r)
		}
	}
	c, err = Compare("a", []*result.Bundle{calm}, "b", []*result.Bundle{hiccup}, CompareOptions{Metric: TAvg})
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[0]; r.Metric != TAvg || r.Speed > 0.6 {
		t.Errorf("t_avg asked for: %+v", r)
	}
	c, err = Compare("a", []*result.Bundle{plain}, "b", []*result.Bundle{hiccup}, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[0]; r.Metric != TAvg {
		t.Errorf("one side without samples: %+v", r)
	}
	ck, err := Check([]*result.Bundle{calm, calm, calm}, []*result.Bundle{hiccup}, CheckOptions{Tolerances: Tolerances{Default: Tolerance{Band: -1, Rel: 0.05}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ck.Rows {
		if r.Metric != TTrim || r.Verdict != VerdictOK {
			t.Errorf("check: %+v", r)
		}
	}
}

// TestTrimmedBounded: in a bounded record the ranks without samples count
// by their median; a rank with neither makes the value unknown.
func TestTrimmedBounded(t *testing.T) {
	r := &result.Result{Suite: "imb", Benchmark: "Allreduce", Ranks: []int{0, 1, 2},
		SamplesUS: [][]float64{{1, 1, 1, 1}, {}, {3, 3, 3, 3}}, SamplesKept: 2, RankP50US: []float64{1, 2, 3}}
	if got := trimmed(r); got != 2 {
		t.Errorf("bounded: %g, want 2", got)
	}
	r.SamplesKept, r.RankP50US = 0, nil
	if got := trimmed(r); !math.IsNaN(got) {
		t.Errorf("a rank without samples or summary: %g, want NaN", got)
	}
}
