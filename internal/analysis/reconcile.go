package analysis

import (
	"slices"
	"strings"
)

// reconcile is explain's last pass over a run's findings: no finding
// says of a step what another contradicts. A series' protocol switch
// (INFO, from its fitted lines) where the cliff rule found the same step
// of the same series a cliff (a WARNING) goes: the WARNING reads the step
// against the bytes and the larger sizes, which the fit cannot.
func reconcile(fs []Finding) []Finding {
	cliff := map[Series][]int64{} // series → the sizes of its cliff WARNINGs
	for _, f := range fs {
		if f.Kind == KindCliff && f.Severity == Warning && f.Series.Benchmark != "" {
			cliff[f.Series] = append(cliff[f.Series], f.Sizes...)
		}
	}
	return slices.DeleteFunc(fs, func(f Finding) bool {
		if f.Kind != KindSwitch || f.Severity != Info || f.Series.Benchmark == "" || len(f.Sizes) == 0 {
			return false
		}
		b := f.Sizes[len(f.Sizes)-1]
		return slices.ContainsFunc(cliff[f.Series], func(x int64) bool { return x == b || x == b/2 || x == 2*b })
	})
}

// consolidate gives one WARNING per distinct problem: what one cause
// shows several ways is one WARNING that names the others, not one each.
// A two-host TCP run with a slow link drew five (the link's efficiency
// in two benchmarks, a plateau, a cliff and a bandwidth fall) for two
// problems. Folded: in a series, the spread between ranks, repetitions
// in two groups and time falling with size (the ranks disturbed), and
// bandwidth far below the link with its plateau under it; in a run, the
// benchmarks far below the link, or on a plateau under it, each kind one
// WARNING (the link); a cliff and a bandwidth fall from about the same
// size on (the larger messages' path).
func consolidate(in *explainInput, fs []Finding) []Finding {
	noise := map[string]bool{KindVariability: true, KindBimodal: true}
	keep := make([]bool, len(fs))
	for i := range fs {
		keep[i] = true
	}
	fold := func(into, from int) {
		f, g := &fs[into], fs[from]
		f.Numbers = append(f.Numbers, "also: "+g.Summary)
		for _, b := range g.Sizes {
			if !slices.Contains(f.Sizes, b) {
				f.Sizes = append(f.Sizes, b)
			}
		}
		keep[from] = false
	}
	warn := func(i int) bool { return keep[i] && fs[i].Severity == Warning }
	for i := range fs {
		if !warn(i) {
			continue
		}
		for j := i + 1; j < len(fs); j++ {
			if !warn(j) {
				continue
			}
			a, b := fs[i], fs[j]
			switch {
			case noise[a.Kind] && noise[b.Kind] && a.Series == b.Series && a.Series.Benchmark != "":
				fold(i, j)
			case a.Kind == KindEfficiency && b.Kind == KindPlateau && a.Series == b.Series:
				fs[i], fs[j] = fs[j], fs[i] // the plateau says more: it stays
				fold(i, j)
			case a.Kind == KindPlateau && b.Kind == KindEfficiency && a.Series == b.Series:
				fold(i, j)
			case (a.Kind == KindEfficiency || a.Kind == KindPlateau) && a.Kind == b.Kind || largeMessages(in, a, b):
				fold(i, j)
				switch {
				case a.Series == b.Series || strings.Contains(fs[i].Summary, b.Series.Benchmark):
				case a.Kind == b.Kind:
					fs[i].Summary += "; " + name(b.Series) + " too"
				default:
					fs[i].Summary += "; " + b.Summary
				}
			}
		}
	}
	out := fs[:0]
	for i, f := range fs {
		if keep[i] {
			out = append(out, f)
		}
	}
	return out
}

// largeMessages: two WARNINGs of the path the larger messages take, from
// about the same size on: a cliff and a bandwidth fall that begins within
// two sizes of it (the fall from the first size below the middle of its
// drop).
func largeMessages(in *explainInput, a, b Finding) bool {
	if len(a.Sizes) == 0 || len(b.Sizes) == 0 {
		return false
	}
	within := func(x, y int64, k int64) bool { return x <= y*k && y <= x*k }
	switch {
	case a.Kind == KindFall && b.Kind == KindCliff:
		a, b = b, a
		fallthrough
	case a.Kind == KindCliff && b.Kind == KindFall:
		on := fallOnset(in, b)
		return on > 0 && within(slices.Min(a.Sizes), on, 4)
	}
	return false
}

// fallOnset is where a bandwidth fall of one series begins: the first
// size after its peak whose bandwidth is below the middle of the fall
// (FallBW/2 under the peak); 0 where it cannot tell (a fall over several
// process counts).
func fallOnset(in *explainInput, f Finding) int64 {
	for _, s := range in.series {
		if s.Series != f.Series {
			continue
		}
		at, ok := falls(in, s)
		if !ok {
			return 0
		}
		peak := rate(s, s.rows[at])
		for _, r := range s.rows[at+1:] {
			if rate(s, r) < (1-in.th.FallBW/2)*peak {
				return r.bytes
			}
		}
	}
	return 0
}
