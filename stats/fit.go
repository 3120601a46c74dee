package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Line is y = Alpha + Beta*x.
type Line struct{ Alpha, Beta float64 }

// At is the line's value at x.
func (l Line) At(x float64) float64 { return l.Alpha + l.Beta*x }

// FitLine fits y = alpha + beta*x by least squares on the relative error
// (weights 1/y²): times that span orders of magnitude count alike. It
// returns the line and its sum of squared relative residuals.
func FitLine(x, y []float64) (Line, float64) {
	w := make([]float64, len(y))
	for i, v := range y {
		w[i] = 1 / math.Max(v*v, 1e-300)
	}
	a, b := stat.LinearRegression(x, y, w, false)
	l := Line{a, b}
	return l, relSSE(l, x, y)
}

func relSSE(l Line, x, y []float64) float64 {
	s := 0.0
	for i := range x {
		r := (y[i] - l.At(x[i])) / y[i]
		s += r * r
	}
	return s
}

// Piecewise is the best fit of two lines, one up to x[Break-1], one from
// x[Break] on (a protocol switch: eager below, rendezvous above).
type Piecewise struct {
	Break          int // index of the first point of the second line
	Below, Above   Line
	SSE, SingleSSE float64 // relative squared residuals, two lines and one
	Single         Line
}

// FitPiecewise tries every break leaving at least minPts points each side
// and keeps the one with the smallest residual. ok is false with too few
// points.
func FitPiecewise(x, y []float64, minPts int) (p Piecewise, ok bool) {
	n := len(x)
	if n < 2*minPts || minPts < 2 {
		return p, false
	}
	p.Single, p.SingleSSE = FitLine(x, y)
	p.SSE = math.Inf(1)
	for k := minPts; k <= n-minPts; k++ {
		lo, s1 := FitLine(x[:k], y[:k])
		hi, s2 := FitLine(x[k:], y[k:])
		if s1+s2 < p.SSE {
			p.Break, p.Below, p.Above, p.SSE = k, lo, hi, s1+s2
		}
	}
	return p, true
}

// Modes is a split of a sample into a low and a high group (Otsu's
// threshold on the logarithms, which maximises the spread between the
// groups).
type Modes struct {
	LowShare            float64 // fraction of the values in the low group
	LowCentre, HiCentre float64 // medians of the groups
	D                   float64 // Ashman's D on the logarithms: > 2 separates the groups cleanly
	Valley              float64 // share of the values in the middle half between the centres
}

// Bimodal reports whether xs (positive values) fall in two separate
// groups: each at least minShare of the values, centres at least ratio
// apart, Ashman's D above 2, and at most 5% of the values in the valley
// between them (which a spread-out, single-peaked sample fills).
func Bimodal(xs []float64, minShare, ratio float64) (Modes, bool) {
	n := len(xs)
	if n < 10 {
		return Modes{}, false
	}
	s := Sorted(xs)
	if !(s[0] > 0) {
		return Modes{}, false
	}
	l := make([]float64, n)
	for i, v := range s {
		l[i] = math.Log(v)
	}
	// prefix sums for the between-class variance of each split
	sum := make([]float64, n+1)
	for i, v := range l {
		sum[i+1] = sum[i] + v
	}
	best, cut := -1.0, 0
	for k := 1; k < n; k++ {
		w0, w1 := float64(k)/float64(n), float64(n-k)/float64(n)
		m0, m1 := sum[k]/float64(k), (sum[n]-sum[k])/float64(n-k)
		if v := w0 * w1 * (m0 - m1) * (m0 - m1); v > best {
			best, cut = v, k
		}
	}
	lo, hi := l[:cut], l[cut:]
	m := Modes{LowShare: float64(cut) / float64(n), LowCentre: Median(s[:cut]), HiCentre: Median(s[cut:])}
	v0, v1 := variance(lo), variance(hi)
	m.D = math.Sqrt2 * math.Abs(Mean(hi)-Mean(lo)) / math.Sqrt(math.Max(v0+v1, 1e-300))
	c0, c1 := math.Log(m.LowCentre), math.Log(m.HiCentre)
	a, b := c0+(c1-c0)/4, c1-(c1-c0)/4
	in := 0
	for _, v := range l {
		if v > a && v < b {
			in++
		}
	}
	m.Valley = float64(in) / float64(n)
	ok := m.LowShare >= minShare && 1-m.LowShare >= minShare && m.HiCentre >= ratio*m.LowCentre && m.D > 2 && m.Valley <= 0.05
	return m, ok
}

func variance(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	mu := Mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - mu) * (x - mu)
	}
	return s / float64(len(xs)-1)
}
