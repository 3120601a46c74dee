package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// bandwidthFall: bandwidth series whose large messages move markedly
// less than their best, a slide the cliff rule leaves to this one (falls).
// With several pairs at once (IMB Uniband and Biband beyond 2 processes,
// osu_mbw_mr, osu_bw fan-in/out) it is their shared resource giving out —
// the memory bus within a node, the NIC or link between nodes — a
// WARNING: the aggregate an application moving large messages from every
// core sees is the low figure, not the peak. One pair that may share a
// node slides as its buffers outgrow the caches (INFO); one pair between
// nodes has no caches to blame (a WARNING). The process counts of one
// benchmark that fall alike are one finding.
func bandwidthFall(in *explainInput) []Finding {
	type group struct {
		f      *Finding
		lo, hi float64 // the least and the most fall, of the process counts
		nps    []string
	}
	groups := map[string]*group{}
	var out []*group
	for _, s := range in.series {
		at, ok := falls(in, s)
		if !ok {
			continue
		}
		n := len(s.rows)
		peak, last := s.rows[at], s.rows[n-1]
		drop := 1 - rate(s, last)/rate(s, peak)
		sev, cause := Warning, ""
		switch {
		case s.NP > 2:
			cause = "several pairs at once share what carries their bytes: within a node the memory bus and the last-level cache (large buffers no longer fit it), between nodes the NIC, the link or the switch; the aggregate at large sizes is what that shared resource gives, and what an application moving large messages from every core sees. Compare the process counts: where the fall begins is where the resource saturates"
		case in.loc == result.InterNode:
			cause = "one pair between nodes has no caches to outgrow: a rendezvous or pipelining limit of the MPI (fragment size, registration cache), the NIC's PCIe path, or congestion on the route; rerun with the MPI's large-message protocol tuned (UCX_RNDV_SCHEME, the libfabric provider's rendezvous settings, I_MPI_* thresholds)"
		default:
			sev = Info
			cause = "one pair on one node (or a run that does not say where): shared-memory copies slow down as the buffers outgrow the CPU caches, expected; between nodes the fall would be worth a look"
		}
		kind := KindFall
		if sev == Info && in.shared(s) {
			kind = KindCliff // the caches' reading, as the cliff rule gives it
		}
		key := s.Suite + "/" + s.Benchmark + "/" + sev + "/" + kind
		g := groups[key]
		if g == nil {
			g = &group{f: &Finding{Kind: kind, Severity: sev, Series: Series{Suite: s.Suite, Benchmark: s.Benchmark, NP: s.NP}, Cause: cause}, lo: drop, hi: drop}
			groups[key] = g
			out = append(out, g)
		}
		g.lo, g.hi = min(g.lo, drop), max(g.hi, drop)
		g.nps = append(g.nps, fmt.Sprint(s.NP))
		g.f.Sizes = append(g.f.Sizes, peak.bytes, last.bytes)
		g.f.Numbers = append(g.f.Numbers, fmt.Sprintf("np %d: %s at %s, %s at %s, %s at %s", s.NP, mbps(rate(s, peak)), Size(peak.bytes),
			mbps(rate(s, s.rows[n-2])), Size(s.rows[n-2].bytes), mbps(rate(s, last)), Size(last.bytes)))
	}
	var fs []Finding
	for _, g := range out {
		f := g.f
		pct := fmt.Sprintf("%.0f%%", 100*g.lo)
		if fmt.Sprintf("%.0f", 100*g.lo) != fmt.Sprintf("%.0f", 100*g.hi) {
			pct = fmt.Sprintf("%.0f-%.0f%%", 100*g.lo, 100*g.hi)
		}
		if len(g.nps) > 1 {
			f.Series.NP = 0
			f.Summary = fmt.Sprintf("%s: bandwidth falls %s from its peak to the largest size at np %s", f.Series.Benchmark, pct, strings.Join(g.nps, ", "))
		} else {
			f.Summary = fmt.Sprintf("%s: bandwidth falls %s from its peak to the largest size", name(f.Series), pct)
		}
		switch {
		case f.Severity == Warning && f.Series.NP != 2:
			f.Summary += ", several pairs at once"
		case f.Kind == KindCliff:
			f.Summary += " on shared memory: the caches"
		}
		slices.Sort(f.Sizes)
		f.Sizes = slices.Compact(f.Sizes)
		fs = append(fs, *f)
	}
	return fs
}

// rate is a row's bandwidth, MB/s: a bandwidth series' own, a latency
// series' bytes over its time (one message one way).
func rate(s *series, r row) float64 {
	if s.metric == BW {
		return r.primary
	}
	if t := r.primaryTime(); t > 0 {
		return float64(r.bytes) / t
	}
	return 0
}

// falls: s is a bandwidth series whose largest size moves FallBW or more
// below its peak (from CliffBWMinBytes on), at the row at; the size
// before the largest is FallBW/2 below it too (a slide, not a last-size
// dip), or the other process counts of the benchmark fall at their
// largest size as well (a dip they all share).
func falls(in *explainInput, s *series) (at int, ok bool) {
	fall := func(s *series, lastOnly bool) (int, bool) {
		n := len(s.rows)
		if n < 4 || s.metric != BW && !s.traits().Latency {
			return 0, false
		}
		peak, at := 0.0, -1
		for i, r := range s.rows {
			if v := rate(s, r); r.bytes >= in.th.CliffBWMinBytes && v > peak {
				peak, at = v, i
			}
		}
		if at < 0 || at == n-1 || rate(s, s.rows[n-1]) > (1-in.th.FallBW)*peak {
			return 0, false
		}
		return at, lastOnly || rate(s, s.rows[n-2]) <= (1-in.th.FallBW/2)*peak
	}
	if s.metric != BW {
		// a latency series' step is the cliff rule's (a cliff, a
		// switch); a slide with no step is this rule's
		if j, _ := steps(s, in.th); len(j) > 0 {
			return 0, false
		}
	}
	if at, ok = fall(s, false); ok || at == 0 {
		return at, ok
	}
	others := 0
	for _, o := range in.series {
		if o != s && o.Suite == s.Suite && o.Benchmark == s.Benchmark {
			if _, ok := fall(o, true); ok {
				others++
			}
		}
	}
	return at, others >= 2
}

// bandwidthOverNP: the same bandwidth benchmark at several process counts
// (IMB -npmin, mbw_mr with more pairs): a count whose best aggregate
// stands far below a smaller count's. More pairs moving less in total
// share a resource that gave out: the link, once pairs cross nodes.
func bandwidthOverNP(in *explainInput) []Finding {
	th := in.th
	by := map[string][]*series{}
	var order []string
	for _, s := range in.series {
		if s.metric != BW {
			continue
		}
		if by[s.Benchmark] == nil {
			order = append(order, s.Benchmark)
		}
		by[s.Benchmark] = append(by[s.Benchmark], s)
	}
	var out []Finding
	for _, b := range order {
		ss := by[b]
		if len(ss) < 2 {
			continue
		}
		sort.Slice(ss, func(i, j int) bool { return ss[i].NP < ss[j].NP })
		best, bestNP := 0.0, 0
		var fell []string
		for _, s := range ss {
			p := 0.0
			for _, r := range s.rows {
				if r.primary > p { // not max: a row without bandwidth (0 B) is NaN
					p = r.primary
				}
			}
			if best > 0 && p < (1-th.FallBW)*best {
				fell = append(fell, fmt.Sprintf("np %d: %s", s.NP, mbps(p)))
			}
			if p > best {
				best, bestNP = p, s.NP
			}
		}
		if len(fell) == 0 {
			continue
		}
		out = append(out, Finding{Kind: KindScaling, Severity: Info, Series: Series{Suite: ss[0].Suite, Benchmark: b},
			Summary: fmt.Sprintf("%s: the aggregate bandwidth falls with more processes, from %s at np %d", b, mbps(best), bestNP),
			Numbers: append([]string{"peak over the sizes, per process count"}, fell...),
			Cause:   "more pairs moving less in total share a resource that gives out: once the pairs cross nodes the links between them cap the aggregate (a link's rate, or less), within a node the memory bus; a process count at a link's rate says where the bottleneck is"})
	}
	return out
}
