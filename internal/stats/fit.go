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
	cost := segmentCosts(x, y, minPts)
	// Breaks are sought among at (most) maxBreaks places, every step-th
	// point, then each is moved to the best point within a step of it: a
	// table of 10,000 sizes costs as little as one of 500.
	step := max(1, (n+maxBreaks-1)/maxBreaks)
	var at []int // the places a line may start or end
	for i := 0; i < n; i += step {
		at = append(at, i)
	}
	at = append(at, n)
	m := len(at) - 1 // at[m] == n
	// best[k][j]: k lines over points 0..at[j]-1; from[k][j]: the index in
	// at of the last line's start
	inf := math.Inf(1)
	best := [][]float64{nil}
	from := [][]int{nil}
	var sses []float64
	for k := 1; k <= maxLines; k++ {
		b, f := make([]float64, m+1), make([]int, m+1)
		for j := range b {
			b[j] = inf
			if k == 1 {
				b[j], f[j] = cost(0, at[j]), 0
				continue
			}
			for i := range j {
				if at[i] < minPts*(k-1) || at[j]-at[i] < minPts {
					continue
				}
				if v := best[k-1][i] + cost(at[i], at[j]); v < b[j] {
					b[j], f[j] = v, i
				}
			}
		}
		best, from = append(best, b), append(from, f)
		if math.IsInf(b[m], 1) {
			break
		}
		sses = append(sses, b[m])
	}
	k := 1
	for k < len(sses) && sses[k] < gain*sses[k-1] {
		k++
	}
	starts := make([]int, k+1) // starts[k] == n
	starts[k] = n
	for end, q := m, k; q >= 1; q-- {
		end = from[q][end]
		starts[q-1] = at[end]
	}
	if step > 1 { // move each break to its best point within a step
		for q := 1; q < k; q++ {
			bestI, bestV := starts[q], inf
			for i := max(starts[q-1]+minPts, starts[q]-step); i <= min(starts[q+1]-minPts, starts[q]+step); i++ {
				if v := cost(starts[q-1], i) + cost(i, starts[q+1]); v < bestV {
					bestI, bestV = i, v
				}
			}
			starts[q] = bestI
		}
	}
	seg := Segments{SSEs: sses}
	for q := range k {
		l, sse := FitLine(x[starts[q]:starts[q+1]], y[starts[q]:starts[q+1]])
		seg.Starts = append(seg.Starts, starts[q])
		seg.Lines = append(seg.Lines, l)
		seg.SSE += sse
	}
	if step == 1 {
		seg.SSE = sses[k-1] // the DP's own sum, as it always was
	}
	return seg, true
}

// maxBreaks is how many places FitSegments considers for a break before
// it moves the breaks it chose point by point.
const maxBreaks = 500

// exactFit is up to how many points FitSegments fits every candidate
// segment point by point (cubic in the points, exact to the last bit);
// past it a segment's cost comes from prefix sums in constant time, so
// that a table of 10,000 sizes is fitted in seconds, not hours.
const exactFit = 64

// segmentCosts returns cost(i, j): the residual of one line over points
// i..j-1, +Inf for fewer than minPts points.
func segmentCosts(x, y []float64, minPts int) func(i, j int) float64 {
	n := len(x)
	if n <= exactFit {
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
		return func(i, j int) float64 { return cost[i][j] }
	}
	// Prefix sums of the weighted moments (weights 1/y², x centred and
	// scaled so that no sum dwarfs another): a segment's weighted least
	// squares and its residual Σw(y-a-bx)² follow from six differences.
	var mean, sd float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	sd = math.Sqrt(sd / float64(n))
	if sd == 0 {
		sd = 1
	}
	var p [6][]float64 // Σw, Σwx, Σwy, Σwxx, Σwxy, Σwyy over points 0..i-1
	for m := range p {
		p[m] = make([]float64, n+1)
	}
	for i := range n {
		w := 1 / math.Max(y[i]*y[i], 1e-300)
		u := (x[i] - mean) / sd
		for m, v := range [6]float64{w, w * u, w * y[i], w * u * u, w * u * y[i], w * y[i] * y[i]} {
			p[m][i+1] = p[m][i] + v
		}
	}
	return func(i, j int) float64 {
		if j-i < minPts {
			return math.Inf(1)
		}
		sw, sx, sy := p[0][j]-p[0][i], p[1][j]-p[1][i], p[2][j]-p[2][i]
		sxx, sxy, syy := p[3][j]-p[3][i], p[4][j]-p[4][i], p[5][j]-p[5][i]
		a, b := sy/sw, 0.0
		if d := sxx - sx*sx/sw; d > 0 {
			b = (sxy - sx*sy/sw) / d
			a = (sy - b*sx) / sw
		}
		sse := syy - 2*a*sy - 2*b*sxy + a*a*sw + 2*a*b*sx + b*b*sxx
		return math.Max(sse, 0)
	}
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
