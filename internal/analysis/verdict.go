package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// VerdictLine is one size band and benchmark family in which B differs
// from A, counting only significant differences (or, with too few
// launches for a test, those beyond the launch noise).
type VerdictLine struct {
	Band       string   `json:"band"`   // a label of Bands
	Family     string   `json:"family"` // point-to-point, reductions, collectives, other
	Faster     bool     `json:"faster"` // B faster (speed > 1)
	Lo         float64  `json:"lo"`     // the range of the speeds
	Hi         float64  `json:"hi"`
	Benchmarks []string `json:"benchmarks"`
	Sizes      int      `json:"sizes"`
}

// Verdict is a comparison's conclusion in plain words.
type Verdict struct {
	Lines      []VerdictLine `json:"lines"`
	Conclusion string        `json:"conclusion"`
}

// String writes a line as a person would: "512 KiB-4 MiB: 2.10-2.40×
// faster in PingPong (point-to-point, 3 sizes)".
func (l VerdictLine) String() string {
	times := func(v float64) string {
		if v < 0.1 {
			return fmt.Sprintf("%.3f", v)
		}
		return fmt.Sprintf("%.2f", v)
	}
	r := times(l.Lo) + "-" + times(l.Hi) + "×"
	if times(l.Lo) == times(l.Hi) {
		r = times(l.Lo) + "×"
	}
	how := r + " faster"
	if !l.Faster {
		how = "slower, at " + r
	}
	return fmt.Sprintf("%s: %s in %s (%s, %d size(s))", l.Band, how, strings.Join(l.Benchmarks, ", "), l.Family, l.Sizes)
}

// family is the benchmark's kind for a verdict, from its spec's traits.
func family(k Key) string {
	t := traitsOf(k.Suite, k.Benchmark)
	switch {
	case t.Reduction:
		return "reductions"
	case t.Cost != nil:
		return "collectives"
	case t.Directions > 0 || t.Latency:
		return "point-to-point"
	}
	return "other"
}

// verdict sums a comparison up by size band and family.
func verdict(rows []Row) Verdict {
	type group struct {
		band   int // index in Bands
		fam    string
		faster bool
	}
	lines := map[group]*VerdictLine{}
	var order []group
	for _, r := range rows {
		if !r.Significant && !r.BeyondNoise || r.Speed == 1 {
			continue
		}
		g := group{BandOf(r.Key.Bytes), family(r.Key), r.Speed > 1}
		l := lines[g]
		if l == nil {
			l = &VerdictLine{Band: Bands[g.band].Label, Family: g.fam, Faster: g.faster, Lo: float64(r.Speed), Hi: float64(r.Speed)}
			lines[g] = l
			order = append(order, g)
		}
		l.Lo, l.Hi = min(l.Lo, float64(r.Speed)), max(l.Hi, float64(r.Speed))
		l.Sizes++
		if !slices.Contains(l.Benchmarks, r.Key.Benchmark) {
			l.Benchmarks = append(l.Benchmarks, r.Key.Benchmark)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].band < order[j].band })
	var v Verdict
	var smallWin, smallLoss, largeWin, largeLoss bool
	for _, g := range order {
		l := *lines[g]
		v.Lines = append(v.Lines, l)
		small := g.band <= 1 // up to 4 KiB: latency-bound
		switch {
		case small && l.Faster:
			smallWin = true
		case small:
			smallLoss = true
		case l.Faster:
			largeWin = true
		default:
			largeLoss = true
		}
	}
	switch {
	case len(v.Lines) == 0:
		v.Conclusion = "no difference beyond the noise: B performs as A"
	case (largeWin || smallWin) && !largeLoss && !smallLoss:
		v.Conclusion = "B is faster wherever it differs: a gain"
	case (largeLoss || smallLoss) && !largeWin && !smallWin:
		v.Conclusion = "B is slower wherever it differs: a regression; look at what changed"
	case largeWin && smallLoss && !largeLoss:
		v.Conclusion = "a net gain for bandwidth-bound codes (large messages faster); small messages regress: investigate the small-message path"
	case smallWin && largeLoss && !smallLoss:
		v.Conclusion = "a gain for latency-bound codes (small messages faster); large messages regress: investigate the large-message path"
	default:
		v.Conclusion = "mixed: faster and slower in the same size range; read the lines above per benchmark"
	}
	return v
}
