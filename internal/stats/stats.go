// Package stats computes summaries of samples: plain functions on
// []float64 that return values (and, where a number is shaky, warnings).
package stats

import (
	"math"
	"sort"
)

// Sorted returns a sorted copy of xs.
func Sorted(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s
}

// Quantile returns the q-quantile (0 <= q <= 1) of sorted data by linear
// interpolation between closest ranks (the "R-7" definition used by
// numpy's default and most spreadsheets); NaN for no data.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if q <= 0 {
		return sorted[0]
	}
	if q >= 1 {
		return sorted[n-1]
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo+1 >= n {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Median is the 0.5 quantile of unsorted data.
func Median(xs []float64) float64 { return Quantile(Sorted(xs), 0.5) }

// Mean is the arithmetic mean; NaN for no data.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TrimmedMean is the mean of xs with the floor(frac·n) smallest and as
// many largest values left out (0 <= frac < 0.5): one slow repetition in
// twenty moves it no more than a typical one; NaN for no data.
func TrimmedMean(xs []float64, frac float64) float64 {
	s := Sorted(xs)
	k := int(math.Floor(frac * float64(len(s))))
	if frac < 0 || frac >= 0.5 {
		k = 0
	}
	return Mean(s[k : len(s)-k])
}

// MinMax returns the smallest and largest value; NaNs for no data.
func MinMax(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// MedianCI is the distribution-free confidence interval of the median of
// sorted data: the order statistics x(j) and x(k) around the middle, with
// j and k from the normal approximation of the Binomial(n, 1/2) count of
// samples below the median, z standard errors out (1.96 for 95%). ok is
// false when n is too small for the interval to lie inside the data.
func MedianCI(sorted []float64, z float64) (lo, hi float64, ok bool) {
	n := len(sorted)
	half := z * math.Sqrt(float64(n)) / 2
	j := int(math.Floor(float64(n)/2 - half)) // 1-based ranks
	k := int(math.Ceil(float64(n)/2 + half + 1))
	if j < 1 || k > n {
		return math.NaN(), math.NaN(), false
	}
	return sorted[j-1], sorted[k-1], true
}

// MedianPrecision is the half-width of the 95% confidence interval of the
// median of xs relative to the median: 0.01 means the median is known to
// within ±1%. It is +Inf when xs is too short for an interval (fewer than
// 8 samples) and NaN for a median of 0.
func MedianPrecision(xs []float64) float64 {
	s := Sorted(xs)
	lo, hi, ok := MedianCI(s, 1.96)
	if !ok {
		return math.Inf(1)
	}
	m := Quantile(s, 0.5)
	if m == 0 {
		return math.NaN()
	}
	return (hi - lo) / 2 / math.Abs(m)
}
