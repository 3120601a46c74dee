package analysis

import (
	"fmt"
	"math"
)

// regimes: the point-to-point time per protocol regime, as Netgauge's
// LogGP assessment reports it: for each segment of the fit time = α +
// β·size (the same fit as protocolSwitch), its sizes, α (the start-up
// latency), 1/β (the bandwidth the bytes move at) and the fit's relative
// rms residual there, so the numbers can be trusted or not.
func regimes(s *series, th Thresholds) []Finding {
	fit := fitLines(s, th)
	x, y, bs, seg := fit.x, fit.y, fit.bs, fit.seg
	if !fit.ok {
		return nil
	}
	if len(seg.Starts) == 1 {
		// one line that misses by 5% and more (the sizes bend: cache
		// levels, a switch the protocol-switch rule's 10% let pass: 9.4%
		// over EFA's 128 KiB step on a field log), or misses some size by
		// 30% and more (a step the large sizes outweigh), describes
		// nothing; the other rules read the bends
		if math.Sqrt(seg.SSEs[0]/float64(len(x))) >= th.SwitchMinRMS/2 {
			return nil
		}
		for k := range x {
			if math.Abs(y[k]-seg.Lines[0].At(x[k])) > 0.3*y[k] {
				return nil
			}
		}
	}
	var parts []string
	for i, start := range seg.Starts {
		end := len(x)
		if i+1 < len(seg.Starts) {
			end = seg.Starts[i+1]
		}
		l := seg.Lines[i]
		var sse float64
		for k := start; k < end; k++ {
			d := (y[k] - l.At(x[k])) / y[k]
			sse += d * d
		}
		parts = append(parts, fmt.Sprintf("%s to %s: %s, rms residual %.1f%%",
			Size(bs[start]), Size(bs[end-1]), lineText(l), 100*math.Sqrt(sse/float64(end-start))))
	}
	return []Finding{{Kind: KindRegimes, Severity: Info, Series: s.Series, Sizes: []int64{bs[0], bs[len(bs)-1]},
		Summary: fmt.Sprintf("%s: %d regime(s) of time = α + size·β", name(s.Series), len(parts)),
		Numbers: parts,
		Cause:   "each regime is one protocol or copy mechanism: t ≈ α + size / bw, α its start-up latency, bw the bandwidth its bytes move at; a large residual means the sizes there follow no straight line (cache effects, noise)"}}
}
