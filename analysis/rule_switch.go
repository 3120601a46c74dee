package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/stats"
)

// protocolSwitch: lines time = α + β·size, one per protocol, fit the
// point-to-point latency far better than one line; where a line starts
// with a jump above the previous one, the protocol changed (eager to
// rendezvous); where only the slope changes, the copy mechanism did.
func protocolSwitch(s *series, th Thresholds) []Finding {
	x, _, bs, seg, ok := fitLines(s, th)
	if !ok || len(seg.Starts) < 2 {
		return nil
	}
	rms := math.Sqrt(seg.SSEs[0] / float64(len(x)))
	if rms < th.SwitchMinRMS { // one line is close enough: nothing worth a finding
		return nil
	}
	var out []Finding
	for i := 1; i < len(seg.Starts); i++ {
		k := seg.Starts[i]
		prev, next := seg.Lines[i-1], seg.Lines[i]
		jump := next.At(x[k]) / prev.At(x[k])
		f := Finding{Kind: KindSwitch, Severity: Info, Series: s.Series, Sizes: []int64{bs[k-1], bs[k]},
			Numbers: []string{
				fmt.Sprintf("up to %s: t ≈ %s + size / %s", Size(bs[k-1]), us(prev.Alpha), mbps(1/prev.Beta)),
				fmt.Sprintf("from %s: t ≈ %s + size / %s", Size(bs[k]), us(next.Alpha), mbps(1/next.Beta)),
				fmt.Sprintf("at %s the new line gives %s where the old one would give %s (×%.2f); one line for all sizes misses by %.0f%% (rms)",
					Size(bs[k]), us(next.At(x[k])), us(prev.At(x[k])), jump, 100*rms)}}
		slope := prev.Beta / next.Beta // > 1: bytes got cheaper
		rendezvous := next.Alpha >= prev.Alpha+math.Max(1, prev.Alpha/2) && slope >= th.SwitchSlope
		switch {
		case jump >= th.SwitchJump || rendezvous:
			f.Summary = fmt.Sprintf("%s: a protocol switch between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "the MPI changes protocol here: small messages go eagerly (copied through buffers), larger ones by rendezvous (a handshake, then a zero-copy or RDMA transfer), which costs a round trip more but moves bytes faster"
		case slope >= th.SwitchSlope || slope <= 1/th.SwitchSlope:
			f.Summary = fmt.Sprintf("%s: the cost per byte changes between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "a change of copy mechanism or pipelining at this size (e.g. copies through a bounce buffer below, fragments or a single-copy path above), or buffers leaving a cache"
		default:
			continue // a small bend, not worth a finding
		}
		out = append(out, f)
	}
	return out
}

// fitLines fits a latency benchmark's time per size with up to
// SwitchLines lines time = α + β·size (sizes above 0): the sizes as x,
// the times as y and bytes, and the segments.
func fitLines(s *series, th Thresholds) (x, y []float64, bs []int64, seg stats.Segments, ok bool) {
	if !s.traits().Latency {
		return nil, nil, nil, seg, false
	}
	for _, r := range s.rows {
		if t := r.primary; r.bytes > 0 && t > 0 {
			x, y, bs = append(x, float64(r.bytes)), append(y, t), append(bs, r.bytes)
		}
	}
	seg, ok = stats.FitSegments(x, y, th.SwitchMinPoints, th.SwitchLines, th.SwitchMinGain)
	return x, y, bs, seg, ok
}
