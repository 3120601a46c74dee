package analysis

import "fmt"

// variability: the slowest rank took more than th.SpreadRatio times as
// long as the fastest (IMB's t_min and t_max are over the ranks).
func variability(in *explainInput, s *series) []Finding {
	th := in.th
	var hit []int64
	var worst row
	for _, r := range s.rows {
		if r.bytes == 0 && !s.traits().Sizeless {
			continue // a call that moves nothing returns as soon as it is entered
		}
		if r.tmin > 0 && r.tmax > th.SpreadRatio*r.tmin && r.tmax >= th.SpreadMinUS {
			hit = append(hit, r.bytes)
			if worst.tmin == 0 || r.tmax/r.tmin > worst.tmax/worst.tmin {
				worst = r
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	f := Finding{Kind: KindVariability, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: the slowest rank took more than %g× as long as the fastest at %s", name(s.Series), th.SpreadRatio, sizes(hit)),
		Numbers: []string{fmt.Sprintf("worst at %s: t_min %s, t_max %s (%.1f×), t_avg %s", Size(worst.bytes), us(worst.tmin),
			us(worst.tmax), worst.tmax/worst.tmin, us(worst.tavg))}}
	switch {
	case s.traits().Rooted:
		f.Severity = Info
		f.Cause = "expected in a rooted collective: the root returns as soon as its part is handed off, the ranks farthest down the tree last; read t_max (the collective's completion) rather than t_min"
	case len(hit) < th.SpreadMinSizes && !(in.oneNode(s) && worst.tmax-worst.tmin >= th.SpreadOneUS):
		f.Severity = Info
		f.Cause = "at one size only: most likely a hiccup during that size (a daemon, an interrupt, a page fault) rather than a property of the benchmark; rerun, and if it comes back at the same size, it is real"
	case len(hit) < th.SpreadMinSizes:
		f.Severity = Warning
		f.Cause = fmt.Sprintf("at one size, but the ranks share a node and the slowest lost %s to the fastest over every repetition: contention or interference (a busy core, ranks not bound, another job or daemon) while this size ran; bind ranks (--bind-to core), keep the node quiet and rerun this size", us(worst.tmax-worst.tmin))
	case s.NP > 2 && !in.oneNode(s):
		f.Severity = Info
		f.Cause = "with more than two ranks over nodes (or where the run does not say), the ranks differ by their place: neighbours on the same node answer sooner than those across the network, ranks deep in a tree wait longer; read t_max (the slowest rank) as the benchmark's time. A spread within one node, or between two ranks, would be interference"
	default:
		f.Severity = Warning
		f.Cause = "contention or interference: ranks placed unevenly (another socket or node), ranks not bound to cores, oversubscription, or noise from daemons and other jobs; bind ranks (--bind-to core), keep the machine quiet and rerun"
	}
	return []Finding{f}
}
