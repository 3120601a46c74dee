package analysis

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/stats"
)

// tails: the slowest repetitions where the run kept them (IMB
// -show_tail, OSU -z: result.Tail). A slowest repetition TailMaxRatio
// times the mean, or a 99th percentile TailP99Ratio times it, is a tail
// the mean hides: a repetition in a hundred, or one in all, waited on
// something else (an interrupt, a page fault, a retransmit). INFO: a
// mean a tenth of the time off says nothing of the application's worst
// message; the run's repetitions say which.
func tails(in *explainInput, s *series, _ []Finding) []Finding {
	th := in.th
	if s.metric == BW {
		return nil // a bandwidth's tail is its low percentiles
	}
	var hit []int64
	var worst, worstP99 float64
	var at row
	for _, r := range s.rows {
		mean := r.primaryTime()
		if !(mean > 0) {
			continue
		}
		max, p99 := tailOf(r, 100), tailOf(r, 99)
		if max >= th.TailMaxRatio*mean || p99 >= th.TailP99Ratio*mean {
			hit = append(hit, r.bytes)
			if max/mean > worst || worst == 0 && p99/mean > worstP99 {
				worst, worstP99, at = max/mean, p99/mean, r
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	f := Finding{Kind: KindVariability, Severity: Info, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: a tail of slow repetitions the mean hides at %s", name(s.Series), sizes(hit))}
	line := fmt.Sprintf("worst at %s: mean %s", Size(at.bytes), us(at.primaryTime()))
	if p99 := tailOf(at, 99); p99 > 0 {
		line += fmt.Sprintf(", p99 %s (%.1f×)", us(p99), p99/at.primaryTime())
	}
	if max := tailOf(at, 100); max > 0 {
		line += fmt.Sprintf(", slowest repetition %s (%.0f×)", us(max), max/at.primaryTime())
	}
	f.Numbers = []string{line}
	f.Cause = "one repetition in a hundred (p99), or the slowest of all, waited on something the others did not: an interrupt or a daemon on a core, a page fault, a network retransmit, the MPI's progress engine; the mean hides it, and an application whose every step waits for its slowest message sees it. Rerun with the ranks bound and the nodes quiet; if the tail stays, look at the retransmit and interrupt counters"
	return []Finding{f}
}

// tailOf is a row's percentile p (100: the slowest repetition), the
// median over its records; 0 where none holds it.
func tailOf(r row, p int) float64 {
	var v []float64
	for _, x := range r.res {
		if t, ok := x.TailAt(p); ok {
			v = append(v, t)
		}
	}
	if len(v) == 0 {
		return 0
	}
	return stats.Median(v)
}
