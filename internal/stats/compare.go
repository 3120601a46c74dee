package stats

import (
	"math"
	"sort"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Test is a two-sample location test: the Mann-Whitney U test, as
// benchstat runs it (golang.org/x/perf/benchmath, no distributional
// assumption).
type Test struct {
	P      float64 // two-sided p-value; 1 when the test cannot run
	N1, N2 int
	// MinP is the smallest p-value samples of these sizes can give: with
	// fewer than 4 launches a side, no difference can reach p < 0.05.
	MinP     float64
	Warnings []error
}

// UTest compares two samples.
func UTest(a, b []float64) Test {
	th := benchmath.DefaultThresholds
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(a, &th), benchmath.NewSample(b, &th))
	return Test{P: c.P, N1: c.N1, N2: c.N2, MinP: MinUTestP(len(a), len(b)), Warnings: c.Warnings}
}

// MinUTestP is the smallest two-sided p-value of the U test for samples
// of sizes n1 and n2 without ties: both extreme orderings, 2 / C(n1+n2, n1).
func MinUTestP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	return math.Min(1, 2/math.Exp(lchoose(n1+n2, n1)))
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// Shift is the Hodges-Lehmann estimate of how far b lies from a (the
// median of all pairwise differences b_j - a_i) with its distribution-free
// confidence interval (Moses), at least at the confidence asked. OK is
// false when the samples are too small for an interval at that level;
// Lo and Hi are then the extreme differences.
type Shift struct {
	Est, Lo, Hi float64
	Confidence  float64 // the interval's exact coverage
	OK          bool
}

// HodgesLehmann computes the shift of b against a.
func HodgesLehmann(a, b []float64, confidence float64) Shift {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return Shift{Est: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	d := make([]float64, 0, m*n)
	for _, x := range a {
		for _, y := range b {
			d = append(d, y-x)
		}
	}
	sort.Float64s(d)
	s := Shift{Est: Quantile(d, 0.5), Lo: d[0], Hi: d[len(d)-1]}
	// k: the largest j with P(U <= j-1) <= alpha/2; the interval is
	// [d_(k), d_(mn+1-k)] (1-based), covering 1 - 2 P(U <= k-1).
	alpha := 1 - confidence
	cdf := uCDF(m, n)
	// P(U <= j-1) grows with j: the largest j at most alpha/2 by bisection
	// (each exact CDF costs as much as the whole distribution)
	k := sort.Search(m*n/2, func(i int) bool { return cdf(float64(i)) > alpha/2 })
	if k == 0 {
		return s
	}
	s.Lo, s.Hi = d[k-1], d[m*n-k]
	s.Confidence = 1 - 2*cdf(float64(k-1))
	s.OK = true
	return s
}

// exactU is up to which sample sizes the U distribution is computed
// exactly; beyond, its normal approximation (with a continuity
// correction) is within 0.002 of it, puts the interval's bound at most
// one difference wider, never narrower (TestUNormalApprox), and costs
// nothing where the exact one grows with the samples' product.
const exactU = 30

// uCDF is P(U <= u) for the Mann-Whitney U of samples of sizes m and n
// without ties.
func uCDF(m, n int) func(u float64) float64 {
	if m <= exactU && n <= exactU {
		return stats.UDist{N1: m, N2: n}.CDF
	}
	mean := float64(m*n) / 2
	sd := math.Sqrt(float64(m*n*(m+n+1)) / 12)
	return func(u float64) float64 { return 0.5 * math.Erfc(-(u+0.5-mean)/(sd*math.Sqrt2)) }
}

// BenjaminiHochberg turns p-values into q-values: reject where q < alpha
// and the expected share of false discoveries among the rejections is at
// most alpha (Benjamini and Hochberg, 1995).
func BenjaminiHochberg(p []float64) []float64 {
	n := len(p)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return p[idx[i]] < p[idx[j]] })
	q := make([]float64, n)
	prev := 1.0
	for r := n - 1; r >= 0; r-- {
		i := idx[r]
		v := math.Min(prev, p[i]*float64(n)/float64(r+1))
		q[i], prev = v, v
	}
	return q
}

// GeoMean is the geometric mean of positive values; NaN if there are none
// or one is not positive.
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// GeoMeanCI is the geometric mean of positive values with a confidence
// interval: Student's t interval of the mean of their logarithms, taken
// back. NaN bounds for fewer than two values.
func GeoMeanCI(xs []float64, confidence float64) (gm, lo, hi float64) {
	gm = GeoMean(xs)
	if len(xs) < 2 || math.IsNaN(gm) {
		return gm, math.NaN(), math.NaN()
	}
	m, ss := math.Log(gm), 0.0
	for _, x := range xs {
		d := math.Log(x) - m
		ss += d * d
	}
	n := float64(len(xs))
	se := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	t := stats.InvCDF(stats.TDist{V: n - 1})(0.5 + confidence/2)
	return gm, math.Exp(m - t*se), math.Exp(m + t*se)
}

// MAD is the median absolute deviation from the median, scaled by 1.4826
// so that it estimates the standard deviation of normal data.
func MAD(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	med := Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	return 1.4826 * Median(dev)
}
