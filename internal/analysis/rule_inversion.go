package analysis

import "fmt"

// inversions: sizes whose time exceeds a larger size's by InversionRatio
// (and CliffTimeMinUS): the time falls as the messages grow. Not a
// protocol switch, which costs more from its size on: the library's
// choice at the smaller size (an algorithm, a protocol threshold) is the
// worse one, or the run was noisy there. INFO: the field's logs show it
// on TCP (64 KiB slower than 128 KiB) and in large allreduces; where it
// lasts, forcing the larger size's algorithm or protocol down to it
// gains time.
func inversions(in *explainInput, s *series, _ []Finding) []Finding {
	if s.metric == BW {
		return nil
	}
	var hit []int64
	var lines []string
	for i, r := range s.rows {
		t := r.primaryTime()
		if r.bytes == 0 || !(t > 0) {
			continue
		}
		for _, q := range s.rows[i+1:] {
			if u := q.primaryTime(); u > 0 && t > in.th.InversionRatio*u && t-u > in.th.InversionMinUS {
				hit = append(hit, r.bytes)
				if len(lines) < 3 {
					lines = append(lines, fmt.Sprintf("%s takes %s, %s only %s", Size(r.bytes), us(t), Size(q.bytes), us(u)))
				}
				break
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	if len(hit) > 3 {
		lines = append(lines, fmt.Sprintf("and %d more sizes", len(hit)-3))
	}
	return []Finding{{Kind: KindVariability, Severity: Info, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: time falls as messages grow at %s", name(s.Series), sizes(hit)),
		Numbers: lines,
		Cause:   "not a protocol switch (which costs more from its size on): the library's choice at the smaller size (a collective algorithm, a protocol threshold, TCP segmentation) is the worse one, or the run was noisy there; if it comes back in other launches, force the larger size's algorithm or move the threshold down"}}
}
