package analysis

import (
	"fmt"
	"math"
)

// inversions: sizes whose time exceeds a larger size's by InversionRatio
// (and InversionMinUS): the time falls as the messages grow. Not a
// protocol switch, which costs more from its size on: the library's
// choice at the smaller size (an algorithm, a protocol threshold) is the
// worse one, or the run was noisy there. INFO: the field's logs show it
// on TCP (64 KiB slower than 128 KiB) and in large allreduces; where it
// lasts, forcing the larger size's algorithm or protocol down to it
// gains time. A WARNING where it is systematic: InversionSizes sizes or
// more of a series at least InversionWorst times slower than a larger
// one, in two series of the run or more (IMB-EXT's non-aggregate puts and
// accumulates over TCP on an ARM board: 800 µs up to 1 KiB, 292 µs at 2
// KiB).
func inversions(in *explainInput, s *series, _ []Finding) []Finding {
	inv := inverted(s, in.th)
	if len(inv.sizes) == 0 {
		return nil
	}
	lines := inv.lines
	if len(inv.sizes) > 3 {
		lines = append(lines, fmt.Sprintf("and %d more sizes", len(inv.sizes)-3))
	}
	f := Finding{Kind: KindVariability, Severity: Info, Series: s.Series, Sizes: inv.sizes,
		Summary: fmt.Sprintf("%s: time falls as messages grow at %s", name(s.Series), sizes(inv.sizes)),
		Numbers: lines,
		Cause:   "not a protocol switch (which costs more from its size on): the library's choice at the smaller size (a collective algorithm, a protocol threshold, TCP segmentation) is the worse one, or the run was noisy there; if it comes back in other launches, force the larger size's algorithm or move the threshold down"}
	if inv.systematic(in.th) {
		var alike []string
		for _, o := range in.series {
			if o != s && inverted(o, in.th).systematic(in.th) {
				alike = append(alike, name(o.Series))
			}
		}
		if len(alike) > 0 {
			f.Severity = Warning
			f.Summary = fmt.Sprintf("%s: small messages are slower than larger ones, up to %.1f× (%s)", name(s.Series), inv.worst, sizes(inv.sizes))
			f.Numbers = append(f.Numbers, "the same in "+joinMax(alike, 4))
			f.Cause = "a slow path for small messages that several benchmarks share: the MPI sends them by a protocol that waits (an acknowledgement, a progress poll, Nagle's algorithm on TCP, a software emulation of one-sided operations) where larger ones go straight; try the library's other transport or its small-message settings (TCP_NODELAY is the default of MPI libraries' TCP paths; Open MPI --mca osc, btl_tcp_eager_limit)"
		}
	}
	return []Finding{f}
}

// inversion is what inverted finds of a series.
type inversion struct {
	sizes []int64
	lines []string // the first three, in words
	worst float64  // the largest ratio of a size's time to a larger one's
}

func (v inversion) systematic(th Thresholds) bool {
	return len(v.sizes) >= th.InversionSizes && v.worst >= th.InversionWorst
}

// inverted finds the series' inversions once (the rule asks it of every
// series for each other), in time linear in the sizes: a size is inverted
// when the least time of the larger sizes is below both its time over
// InversionRatio and its time less InversionMinUS, and its worst ratio is
// to that least time.
func inverted(s *series, th Thresholds) inversion {
	if s.inv != nil {
		return *s.inv
	}
	var v inversion
	s.inv = &v
	if s.metric == BW {
		return v
	}
	n := len(s.rows)
	least := make([]float64, n+1) // least[i]: the least positive time from size i on
	least[n] = math.Inf(1)
	for i := n - 1; i >= 0; i-- {
		least[i] = least[i+1]
		if u := s.rows[i].primaryTime(); u > 0 {
			least[i] = math.Min(least[i], u)
		}
	}
	for i, r := range s.rows {
		t := r.primaryTime()
		if r.bytes == 0 || !(t > 0) {
			continue
		}
		below := math.Min(t/th.InversionRatio, t-th.InversionMinUS) // a larger size's time under it is an inversion
		if !(least[i+1] < below) {
			continue
		}
		v.sizes = append(v.sizes, r.bytes)
		v.worst = max(v.worst, t/least[i+1])
		if len(v.lines) < 3 {
			for _, q := range s.rows[i+1:] { // the first larger size that is faster, as a person reads the table
				if u := q.primaryTime(); u > 0 && u < below {
					v.lines = append(v.lines, fmt.Sprintf("%s takes %s, %s only %s", Size(r.bytes), us(t), Size(q.bytes), us(u)))
					break
				}
			}
		}
	}
	return v
}

// joinMax joins up to n names, "and k more" after them.
func joinMax(names []string, n int) string {
	if len(names) <= n {
		return fmt.Sprint(names)
	}
	return fmt.Sprintf("%v and %d more", names[:n], len(names)-n)
}
