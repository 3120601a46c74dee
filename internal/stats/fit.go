package stats

import "math"

// Line is y = Alpha + Beta*x.
type Line struct{ Alpha, Beta float64 }

// At is the line's value at x.
func (l Line) At(x float64) float64 { return l.Alpha + l.Beta*x }

// FitLine fits y = alpha + beta*x by weighted least squares on the
// relative error (weights 1/y²): times that span orders of magnitude count
// alike. It returns the line and its sum of squared relative residuals.
// (gonum's stat.LinearRegression takes frequency weights, which these are
// not.)
func FitLine(x, y []float64) (Line, float64) {
	var sw, sx, sy float64
	w := make([]float64, len(y))
	for i, v := range y {
		w[i] = 1 / math.Max(v*v, 1e-300)
		sw += w[i]
		sx += w[i] * x[i]
		sy += w[i] * y[i]
	}
	mx, my := sx/sw, sy/sw
	var sxx, sxy float64
	for i := range x {
		dx := x[i] - mx
		sxx += w[i] * dx * dx
		sxy += w[i] * dx * (y[i] - my)
	}
	l := Line{Alpha: my}
	if sxx > 0 {
		l.Beta = sxy / sxx
		l.Alpha = my - l.Beta*mx
	}
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

// Segments is a fit of consecutive lines to consecutive runs of points:
// Lines[i] covers the points from Starts[i] up to Starts[i+1] (a protocol
// switch starts a new line).
type Segments struct {
	Starts []int
	Lines  []Line
	SSE    float64 // relative squared residuals of the whole fit
	// SSEs[k-1] is the best residual with k lines, for every k tried.
	SSEs []float64
}

// FitSegments fits up to maxLines lines, each over at least minPts
// points, by dynamic programming over the breaks. A line is added only if
// it takes the residual below gain times the residual without it. ok is
// false with fewer than minPts points.
func FitSegments(x, y []float64, minPts, maxLines int, gain float64) (Segments, bool) {
	n := len(x)
	if n < minPts || minPts < 2 || maxLines < 1 {
		return Segments{}, false
	}
	// cost[i][j]: one line over points i..j-1
	cost := make([][]float64, n+1)
	for i := range cost {
		cost[i] = make([]float64, n+1)
		for j := range cost[i] {
			cost[i][j] = math.Inf(1)
			if j-i >= minPts {
				_, cost[i][j] = FitLine(x[i:j], y[i:j])
			}
		}
	}
	// best[k][j]: k lines over points 0..j-1; from[k][j]: start of the last
	inf := math.Inf(1)
	best := [][]float64{nil}
	from := [][]int{nil}
	var seg Segments
	for k := 1; k <= maxLines; k++ {
		b, f := make([]float64, n+1), make([]int, n+1)
		for j := range b {
			b[j] = inf
			if k == 1 {
				b[j], f[j] = cost[0][j], 0
				continue
			}
			for i := minPts * (k - 1); i <= j-minPts; i++ {
				if v := best[k-1][i] + cost[i][j]; v < b[j] {
					b[j], f[j] = v, i
				}
			}
		}
		best, from = append(best, b), append(from, f)
		if math.IsInf(b[n], 1) {
			break
		}
		seg.SSEs = append(seg.SSEs, b[n])
	}
	k := 1
	for k < len(seg.SSEs) && seg.SSEs[k] < gain*seg.SSEs[k-1] {
		k++
	}
	seg.SSE = seg.SSEs[k-1]
	end := n
	for ; k >= 1; k-- {
		start := from[k][end]
		l, _ := FitLine(x[start:end], y[start:end])
		seg.Starts = append([]int{start}, seg.Starts...)
		seg.Lines = append([]Line{l}, seg.Lines...)
		end = start
	}
	return seg, true
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
