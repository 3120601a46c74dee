package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// stragglers: in symmetric benchmarks, one rank stands apart from the
// others far more often than chance. A rank that arrives late at
// synchronising calls is the one whose calls return quickest (the others
// wait for it), so apart means either way: a mean StragglerGap times
// below or above the median of the other ranks'. With two ranks only the
// ring (each rank times its own transfer) tells, by its slowest rank.
func stragglers(r *result.Bundle, th Thresholds) []Finding {
	votes := map[int][]float64{} // rank → its mean over the others' median, where it stands apart
	n, ranks := 0, 0
	for _, x := range r.Results {
		t := traitsOf(x.Suite, x.Benchmark)
		if x.Status != result.StatusOK || t.Rooted || len(x.Ranks) < 3 && !t.OwnTimes || len(x.Ranks) < 2 || len(x.RankMeanUS) != len(x.Ranks) {
			continue
		}
		ranks = max(ranks, len(x.Ranks))
		k, ratio, ok := apart(x.RankMeanUS, th.StragglerGap)
		if !ok {
			continue
		}
		n++
		votes[x.Ranks[k]] = append(votes[x.Ranks[k]], ratio)
	}
	if n < th.StragglerMinSizes {
		return nil
	}
	best, count := -1, 0
	for rk, v := range votes {
		if c := len(v); c > count || c == count && rk < best {
			best, count = rk, c
		}
	}
	p := 1 / float64(ranks)
	if float64(count) < th.StragglerShare*float64(n) || binomTail(n, count, p) > th.StragglerP {
		return nil
	}
	host := ""
	for _, rk := range r.Run.Ranks {
		if rk.Rank == best {
			host = " on " + rk.Host
		}
	}
	var lows, highs []float64
	for _, x := range votes[best] {
		if x < 1 {
			lows = append(lows, x)
		} else {
			highs = append(highs, x)
		}
	}
	var how []string
	if len(lows) > 0 {
		how = append(how, fmt.Sprintf("in %d its calls take %.2f× the other ranks' time (median): they wait for it, it arrives late", len(lows), stats.Median(lows)))
	}
	if len(highs) > 0 {
		how = append(how, fmt.Sprintf("in %d it takes %.1f× as long as the other ranks (median)", len(highs), stats.Median(highs)))
	}
	return []Finding{{Kind: KindStraggler, Severity: Warning,
		Summary: fmt.Sprintf("rank %d%s stands apart from the other ranks in %d of the %d measurements where one does", best, host, count, n),
		Numbers: []string{strings.Join(how, "; "), fmt.Sprintf("chance would make any one of %d ranks the one apart about %.1f times", ranks, float64(n)*p)},
		Cause:   "one rank or host holds the others back: a busy or throttled core, a NIC or link in worse shape, a host with other load; look at that host first"}}
}

// apart: the rank whose mean stands farthest from the median of the other
// ranks' means, gap times or more below or above it, and its ratio to
// that median. With two ranks, the slower, when gap times the faster.
func apart(means []float64, gap float64) (k int, ratio float64, ok bool) {
	if len(means) == 2 {
		k = 0
		if means[1] > means[0] {
			k = 1
		}
		if !(means[1-k] > 0) {
			return k, 0, false
		}
		ratio = means[k] / means[1-k]
		return k, ratio, ratio >= gap
	}
	far := 0.0
	for i, v := range means {
		m := stats.Median(append(slices.Clone(means[:i]), means[i+1:]...))
		if !(v > 0) || !(m > 0) {
			continue
		}
		if d := math.Abs(math.Log(v / m)); d > far {
			far, k, ratio = d, i, v/m
		}
	}
	return k, ratio, far > 0 && far >= math.Log(gap)
}

// binomTail is P(X >= k) for X ~ Binomial(n, p).
func binomTail(n, k int, p float64) float64 {
	s := 0.0
	for i := k; i <= n; i++ {
		s += math.Exp(lchoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return s
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
