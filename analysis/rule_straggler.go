package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/result"
)

// stragglers: in symmetric benchmarks, one rank slowest far more often
// than chance.
func stragglers(r *result.Bundle, th Thresholds) []Finding {
	slowest := map[int]int{}
	n, ranks := 0, 0
	for _, x := range r.Results {
		t := traitsOf(x.Suite, x.Benchmark)
		if x.Status != result.StatusOK || t.Rooted || len(x.Ranks) < 3 && !t.OwnTimes || len(x.Ranks) < 2 {
			continue
		}
		i := 0
		for k, v := range x.RankMeanUS {
			if v > x.RankMeanUS[i] {
				i = k
			}
		}
		slowest[x.Ranks[i]]++
		n++
		ranks = max(ranks, len(x.Ranks))
	}
	if n < th.StragglerMinSizes {
		return nil
	}
	best, count := -1, 0
	for rk, c := range slowest {
		if c > count || c == count && rk < best {
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
	return []Finding{{Kind: KindStraggler, Severity: Warning,
		Summary: fmt.Sprintf("rank %d%s is the slowest rank in %d of %d measurements", best, host, count, n),
		Numbers: []string{fmt.Sprintf("chance would make any one of %d ranks slowest about %.1f times", ranks, float64(n)*p)},
		Cause:   "one rank or host holds the others back: a busy or throttled core, a NIC or link in worse shape, a host with other load; look at that host first"}}
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
