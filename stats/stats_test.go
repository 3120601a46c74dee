package stats

import (
	"math"
	"testing"
)

func TestQuantile(t *testing.T) {
	// 1..10: position h = q*(n-1) = q*9.
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	s := Sorted(xs)
	cases := []struct{ q, want float64 }{
		{0, 1},       // smallest
		{1, 10},      // largest
		{0.5, 5.5},   // h = 4.5 -> 5 + 0.5*(6-5)
		{0.9, 9.1},   // h = 8.1 -> 9 + 0.1*(10-9)
		{0.99, 9.91}, // h = 8.91 -> 9 + 0.91
		{0.25, 3.25}, // h = 2.25 -> 3 + 0.25
	}
	for _, c := range cases {
		if got := Quantile(s, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of nothing is not NaN")
	}
	if got := Quantile([]float64{7}, 0.99); got != 7 {
		t.Errorf("one sample: %g", got)
	}
	if Median([]float64{3, 1, 2}) != 2 || Mean([]float64{1, 2, 6}) != 3 {
		t.Error("median or mean")
	}
	if lo, hi := MinMax([]float64{3, -1, 2}); lo != -1 || hi != 3 {
		t.Errorf("MinMax = %g %g", lo, hi)
	}
}
