package stats

import (
	"fmt"
	mstats "github.com/aclements/go-moremath/stats"
	"math"
	"sort"
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

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The values below are worked out by hand in the comments.
func TestUTest(t *testing.T) {
	// 4 vs 4, fully separated: only 2 of the C(8,4) = 70 orderings are as
	// extreme, so p = 2/70.
	r := UTest([]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8})
	if !near(r.P, 2.0/70, 1e-9) || !near(r.MinP, 2.0/70, 1e-12) || r.N1 != 4 {
		t.Errorf("%+v", r)
	}
	// 3 vs 3 can never reach 0.05: 2/20 = 0.1.
	if p := MinUTestP(3, 3); !near(p, 0.1, 1e-12) {
		t.Errorf("MinUTestP(3,3) = %g", p)
	}
	// interleaved: no evidence
	if r := UTest([]float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}); r.P < 0.5 {
		t.Errorf("interleaved p = %g", r.P)
	}
}

func TestHodgesLehmann(t *testing.T) {
	// b - a over all 16 pairs of {1..4} and {5..8}: 1,2,2,3,3,3,4,4,4,4,5,5,5,6,6,7.
	a, b := []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}
	s := HodgesLehmann(a, b, 0.95)
	// P(U<=0) = 1/70 <= 0.025 < P(U<=1) = 2/70: k = 1, the whole range,
	// coverage 1 - 2/70.
	if !s.OK || s.Est != 4 || s.Lo != 1 || s.Hi != 7 || !near(s.Confidence, 1-2.0/70, 1e-12) {
		t.Errorf("95%%: %+v", s)
	}
	// At 90%: P(U<=1) = 2/70 <= 0.05 < P(U<=2) = 4/70: k = 2, [d(2), d(15)].
	s = HodgesLehmann(a, b, 0.90)
	if !s.OK || s.Lo != 2 || s.Hi != 6 || !near(s.Confidence, 1-4.0/70, 1e-12) {
		t.Errorf("90%%: %+v", s)
	}
	// 2 vs 2: P(U<=0) = 1/6 > 0.025, no 95% interval.
	if s := HodgesLehmann([]float64{1, 2}, []float64{3, 4}, 0.95); s.OK || s.Est != 2 {
		t.Errorf("2 vs 2: %+v", s)
	}
}

func TestBenjaminiHochberg(t *testing.T) {
	// sorted 0.01, 0.03, 0.04, 0.20 -> 0.04, 0.06, 0.0533, 0.2, then made
	// monotone from the top: 0.04, 0.0533, 0.0533, 0.2.
	q := BenjaminiHochberg([]float64{0.01, 0.04, 0.03, 0.20})
	want := []float64{0.04, 0.16 / 3, 0.16 / 3, 0.2}
	for i := range q {
		if !near(q[i], want[i], 1e-12) {
			t.Errorf("q = %v, want %v", q, want)
			break
		}
	}
}

func TestGeoMeanMAD(t *testing.T) {
	if g := GeoMean([]float64{1, 4, 16}); !near(g, 4, 1e-12) {
		t.Errorf("GeoMean = %g", g)
	}
	if g := GeoMean([]float64{1, 0}); !math.IsNaN(g) {
		t.Errorf("GeoMean with 0 = %g", g)
	}
	// median 3, deviations 2,1,0,1,97 -> median 1
	if m := MAD([]float64{1, 2, 3, 4, 100}); !near(m, 1.4826, 1e-12) {
		t.Errorf("MAD = %g", m)
	}
}

func TestFits(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 2 + 0.5*v
	}
	l, sse := FitLine(x, y)
	if !near(l.Alpha, 2, 1e-9) || !near(l.Beta, 0.5, 1e-9) || sse > 1e-18 {
		t.Errorf("line %+v sse %g", l, sse)
	}
	// 1 + 0.1x up to 5, 10 + x from 6: the break is at index 5.
	for i, v := range x {
		if v <= 5 {
			y[i] = 1 + 0.1*v
		} else {
			y[i] = 10 + v
		}
	}
	p, ok := FitSegments(x, y, 3, 3, 0.3)
	if !ok || fmt.Sprint(p.Starts) != "[0 5]" || !near(p.Lines[1].Beta, 1, 1e-9) || !near(p.Lines[0].Alpha, 1, 1e-9) ||
		p.SSE > 1e-18 || p.SSEs[0] < 0.1 || len(p.SSEs) != 3 {
		t.Errorf("two lines %+v", p)
	}
	// three pieces: 2 up to x=4, 2 + 3(x-4)... with jumps at 5 and 9
	x = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	y = []float64{2, 2, 2, 2, 20, 21, 22, 23, 100, 110, 120, 130}
	p, ok = FitSegments(x, y, 3, 4, 0.3)
	if !ok || fmt.Sprint(p.Starts) != "[0 4 8]" || p.SSE > 1e-18 {
		t.Errorf("three lines %+v", p)
	}
	// one line fits: no break
	if p, _ := FitSegments(x, x, 3, 3, 0.3); len(p.Starts) != 1 {
		t.Errorf("a straight line broken: %+v", p)
	}
	if _, ok := FitSegments(x[:2], y[:2], 3, 3, 0.3); ok {
		t.Error("2 points, 3 a line")
	}
}

func TestBimodal(t *testing.T) {
	var two, one []float64
	for i := 0; i < 50; i++ {
		two = append(two, 1+0.001*float64(i))
	}
	for i := 0; i < 30; i++ {
		two = append(two, 3+0.001*float64(i))
	}
	m, ok := Bimodal(two, 0.1, 1.5)
	if !ok || !near(m.LowShare, 50.0/80, 1e-12) || !near(m.LowCentre, 1.0245, 1e-9) || !near(m.HiCentre, 3.0145, 1e-9) {
		t.Errorf("two groups: %+v %v", m, ok)
	}
	for i := 0; i < 100; i++ { // spread evenly over 1..10: one broad peak, no valley
		one = append(one, 1+0.09*float64(i))
	}
	if m, ok := Bimodal(one, 0.1, 1.5); ok {
		t.Errorf("uniform called bimodal: %+v", m)
	}
	if _, ok := Bimodal(two[:5], 0.1, 1.5); ok {
		t.Error("5 values called bimodal")
	}
}

func TestMedianCI(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	// n = 100: ranks 50 ∓ 1.96·√100/2 = 50 ∓ 9.8 → j = 40, k = 1 + 50 + 9.8 → 61 (the
	// textbook pair for 95%); the values are the ranks themselves.
	lo, hi, ok := MedianCI(xs, 1.96)
	if !ok || lo != 40 || hi != 61 {
		t.Errorf("n=100: [%g, %g] %v, want [40, 61]", lo, hi, ok)
	}
	// precision: (61 - 40) / 2 / 50.5 = 0.20792
	if got := MedianPrecision(xs); math.Abs(got-21.0/2/50.5) > 1e-12 {
		t.Errorf("precision %g", got)
	}
	// n = 8: j = 4 - 2.77 → 1, k = 1 + 4 + 2.77 → 8: the whole range; n = 7 has none.
	if lo, hi, ok := MedianCI(xs[:8], 1.96); !ok || lo != 1 || hi != 8 {
		t.Errorf("n=8: [%g, %g] %v", lo, hi, ok)
	}
	if _, _, ok := MedianCI(xs[:7], 1.96); ok {
		t.Error("n=7 has an interval")
	}
	if !math.IsInf(MedianPrecision(xs[:7]), 1) {
		t.Error("n=7: want +Inf")
	}
}

func TestTrimmedMean(t *testing.T) {
	twenty := make([]float64, 20)
	for i := range twenty {
		twenty[i] = float64(i + 1)
	}
	twenty[19] = 1000 // one slow value in twenty: left out at 5%
	cases := []struct {
		xs   []float64
		frac float64
		want float64
	}{
		{twenty, 0.05, 10.5}, // 2..19
		{twenty, 0, (190 + 1000) / 20.0},
		{[]float64{1, 2, 300}, 0.05, 101}, // floor(0.15) = 0: nothing left out
		{[]float64{5, 1, 3, 2, 4}, 0.2, 3},
		{[]float64{1, 2, 3}, 0.6, 2}, // out of range: the plain mean
	}
	for _, c := range cases {
		if got := TrimmedMean(c.xs, c.frac); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("TrimmedMean(%v, %g) = %g, want %g", c.xs, c.frac, got, c.want)
		}
	}
	if !math.IsNaN(TrimmedMean(nil, 0.05)) {
		t.Error("no data is not NaN")
	}
}

// TestUNormalApprox: past exactU, the normal approximation of the U
// distribution is within 0.002 of the exact one, and the Hodges-Lehmann
// interval's bound it gives is the exact one or one difference wider.
func TestUNormalApprox(t *testing.T) {
	for _, mn := range [][2]int{{exactU + 1, exactU + 1}, {35, 40}, {exactU + 1, 50}} {
		m, n := mn[0], mn[1]
		exact, approx := mstats.UDist{N1: m, N2: n}.CDF, uCDF(m, n)
		for u := 0; u <= m*n/2; u += 3 {
			if d := math.Abs(exact(float64(u)) - approx(float64(u))); d > 0.002 {
				t.Errorf("%dx%d: at U=%d the approximation is %.4f off", m, n, u, d)
			}
		}
		ke := sort.Search(m*n/2, func(i int) bool { return exact(float64(i)) > 0.025 })
		ka := sort.Search(m*n/2, func(i int) bool { return approx(float64(i)) > 0.025 })
		if ka != ke && ka != ke-1 {
			t.Errorf("%dx%d: interval bound k %d, exact %d", m, n, ka, ke)
		}
	}
}

// TestFitSegmentsLarge: on a table far past exactFit and maxBreaks (3,000
// sizes: three regimes, the second a higher start-up, the third cheaper
// bytes, with 1% noise), the fit finds the two breaks where they are.
func TestFitSegmentsLarge(t *testing.T) {
	const n = 3000
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = float64(8 * (i + 1))
		switch {
		case i < 1000:
			y[i] = 1 + x[i]/1000
		case i < 2200:
			y[i] = 20 + x[i]/1000
		default:
			y[i] = 60 + x[i]/4000
		}
		y[i] *= 1 + 0.01*float64((i*37)%7-3)/3 // deterministic noise, ±1%
	}
	seg, ok := FitSegments(x, y, 3, 3, 0.3)
	if !ok || len(seg.Starts) != 3 || seg.Starts[1] != 1000 || seg.Starts[2] != 2200 {
		t.Errorf("starts %v, want [0 1000 2200]", seg.Starts)
	}
}

// TestGeoMeanCI: against values worked out by hand: logs 0, ln 2 (mean
// ln √2, sd ln 2/√2, se ln 2/2), t(0.975, 1) = 12.706.
func TestGeoMeanCI(t *testing.T) {
	for _, c := range []struct {
		xs         []float64
		gm, lo, hi float64
	}{
		{[]float64{1, 2}, math.Sqrt2, math.Sqrt2 * math.Exp(-12.7062*math.Ln2/2), math.Sqrt2 * math.Exp(12.7062*math.Ln2/2)},
		{[]float64{1.05, 1.05, 1.05}, 1.05, 1.05, 1.05},
		{[]float64{1.1}, 1.1, math.NaN(), math.NaN()},
	} {
		gm, lo, hi := GeoMeanCI(c.xs, 0.95)
		near := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-3*math.Abs(b) }
		if !near(gm, c.gm) || !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("GeoMeanCI(%v) = %g [%g %g], want %g [%g %g]", c.xs, gm, lo, hi, c.gm, c.lo, c.hi)
		}
	}
	// five rounds 3% slow with ±1% noise: the interval leaves 1 out
	if _, lo, _ := GeoMeanCI([]float64{1.02, 1.04, 1.03, 1.035, 1.025}, 0.95); !(lo > 1) {
		t.Errorf("a 3%% bias over five rounds: interval from %g", lo)
	}
}
