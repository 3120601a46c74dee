package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/stats"
)

// Siblings are the benchmarks of one run built on the same transfers
// (IMB's PingPong, PingPing, Sendrecv, Exchange: bench.Traits.Sends),
// at one process count. What the MPI does to a message size (a protocol
// switch, a slower path) it does to all of them; what one of them does
// alone is that benchmark's own: its buffers, its pattern, the path its
// messages take.

// siblings of s in the run: the other series of its suite and process
// count with Sends, timed (not bandwidth-led).
func siblings(in *explainInput, s *series) []*series {
	if s.traits().Sends == 0 || s.metric == BW {
		return nil
	}
	var out []*series
	for _, o := range in.series {
		if o != s && o.Suite == s.Suite && o.NP == s.NP && o.traits().Sends > 0 && o.metric != BW {
			out = append(out, o)
		}
	}
	return out
}

// sendRate is what each rank sends per µs (MB/s) at each size from
// SiblingMinBytes on: bytes × Sends over the reported time.
func sendRate(s *series, th Thresholds) map[int64]float64 {
	k := float64(s.traits().Sends)
	out := map[int64]float64{}
	for _, r := range s.rows {
		if t := r.primaryTime(); r.bytes >= th.SiblingMinBytes && t > 0 {
			out[r.bytes] = float64(r.bytes) * k / t
		}
	}
	return out
}

// standing is s's send rate over a sibling's at the sizes both ran, by
// size.
type standing struct {
	sib   *series
	sizes []int64
	q     []float64 // rate of s / rate of sib
	mine  []float64 // rate of s
	their []float64 // rate of sib
}

func standings(s *series, sibs []*series, th Thresholds) []standing {
	mine := sendRate(s, th)
	var out []standing
	for _, o := range sibs {
		their := sendRate(o, th)
		st := standing{sib: o}
		for _, r := range s.rows {
			a, b := mine[r.bytes], their[r.bytes]
			if a > 0 && b > 0 {
				st.sizes, st.q, st.mine, st.their = append(st.sizes, r.bytes), append(st.q, a/b), append(st.mine, a), append(st.their, b)
			}
		}
		if len(st.sizes) > 0 {
			out = append(out, st)
		}
	}
	return out
}

// from: the index of the first size at or above b.
func (st standing) from(b int64) int {
	i, _ := slices.BinarySearch(st.sizes, b)
	return i
}

// loneStep: a step of s at b that no sibling shares (none steps within
// one size of it, stepped: series → the sizes it steps at) and after
// which s's send rate stands at SiblingStep of its standing before the
// step or less against every sibling (the median over the larger sizes,
// two at least), and below SiblingStay of it at each: the numbers that
// show it, or nil.
func loneStep(s *series, b int64, sibs []*series, stepped map[*series][]int64, th Thresholds) []string {
	for _, o := range sibs {
		for _, x := range stepped[o] {
			if x == b || x == b/2 || x == b*2 {
				return nil
			}
		}
	}
	var out []string
	for _, st := range standings(s, sibs, th) {
		i := st.from(b)
		if i == 0 || len(st.sizes)-i < th.SiblingSizes {
			continue // no size before the step, or too few after it
		}
		before := stats.Median(st.q[max(0, i-3):i])
		if !(stats.Median(st.q[i:]) <= th.SiblingStep*before) {
			return nil
		}
		for _, q := range st.q[i:] {
			if !(q <= th.SiblingStay*before) {
				return nil
			}
		}
		out = append(out, describeStanding(s, st, i))
	}
	return out
}

// describeStanding: s against one sibling from the i-th common size on
// (the median ratio, the ratio before, and the largest size's rates).
func describeStanding(s *series, st standing, i int) string {
	n := len(st.sizes) - 1
	was := ""
	if i > 0 {
		was = fmt.Sprintf(", %.2f× before", stats.Median(st.q[max(0, i-3):i]))
	}
	return fmt.Sprintf("against %s from %s on: %s sends at %.2f× its rate%s (at %s: %s against %s)",
		st.sib.Benchmark, Size(st.sizes[i]), s.Benchmark, stats.Median(st.q[i:]), was,
		Size(st.sizes[n]), mbps(st.mine[n]), mbps(st.their[n]))
}

// belowSiblings: s's send rate far below every sibling's (SiblingFar of
// it or less) at every size from some size to the largest (SiblingSizes
// of them at least), with no step of its own to say why (loneStep says
// that one): a benchmark slower than the transfers it is built on, a
// WARNING.
func belowSiblings(in *explainInput, s *series, lone bool) []Finding {
	th := in.th
	sibs := siblings(in, s)
	if lone || len(sibs) == 0 {
		return nil
	}
	sts := standings(s, sibs, th)
	if len(sts) < len(sibs) {
		return nil // a sibling without sizes in common: nothing to hold s against
	}
	// the smallest size from which s stands below every sibling
	var from int64 = -1
	for _, st := range sts {
		i := len(st.q)
		for i > 0 && st.q[i-1] <= th.SiblingFar {
			i--
		}
		if len(st.q)-i < th.SiblingSizes {
			return nil
		}
		from = max(from, st.sizes[i])
	}
	var nums, names []string
	for _, st := range sts {
		i := st.from(from)
		if len(st.sizes)-i < th.SiblingSizes {
			return nil
		}
		nums = append(nums, describeStanding(s, st, i))
		names = append(names, st.sib.Benchmark)
	}
	return []Finding{{Kind: KindSiblings, Severity: Warning, Series: s.Series, Sizes: []int64{from},
		Summary: fmt.Sprintf("%s: from %s on, each rank sends at less than %.0f%% of the rate of %s, which are built on the same transfers",
			name(s.Series), Size(from), 100*th.SiblingFar, strings.Join(names, ", ")),
		Numbers: nums,
		Cause:   siblingCause}}
}

// siblingCause: what a difference between siblings points to.
const siblingCause = "the MPI treats a message size alike in every benchmark built on the same transfers (a protocol switch shows in all of them), so one of them falling behind alone is that benchmark's: its buffers (alignment, placement, reuse: compare -off_cache), its pattern (one direction at a time against both), or the path its messages take; rerun it alone, then with the siblings, to tell"
