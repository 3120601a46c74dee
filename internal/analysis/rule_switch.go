package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/internal/stats"
)

// protocolSwitch: lines time = α + β·size, one per protocol, fit the
// point-to-point latency far better than one line; where a line starts
// with a jump above the previous one, the protocol changed (eager to
// rendezvous); where only the slope changes, the copy mechanism did.
func protocolSwitch(s *series, th Thresholds) []Finding {
	var out []Finding
	for _, p := range switchPoints(s, th) {
		x, bs, k := p.fit.x, p.fit.bs, p.k
		prev, next := p.prev, p.next
		f := Finding{Kind: KindSwitch, Severity: Info, Series: s.Series, Sizes: []int64{bs[k-1], bs[k]},
			Numbers: []string{
				fmt.Sprintf("up to %s: %s", Size(bs[k-1]), lineText(prev)),
				fmt.Sprintf("from %s: %s", Size(bs[k]), lineText(next)),
				fmt.Sprintf("at %s the new line gives %s where the old one would give %s (×%.2f); one line for all sizes misses by %.0f%% (rms)",
					Size(bs[k]), us(next.At(x[k])), us(prev.At(x[k])), p.jump, 100*p.rms)}}
		switch {
		case p.protocol:
			f.Summary = fmt.Sprintf("%s: a protocol switch between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "the MPI changes protocol here: small messages go eagerly (copied through buffers), larger ones by rendezvous (a handshake, then a zero-copy or RDMA transfer), which costs a round trip more but moves bytes faster"
		default:
			f.Summary = fmt.Sprintf("%s: the cost per byte changes between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "a change of copy mechanism or pipelining at this size (e.g. copies through a bounce buffer below, fragments or a single-copy path above), or buffers leaving a cache"
		}
		out = append(out, f)
	}
	return out
}

// switchPoint is a break of a latency benchmark's fitted lines worth a
// finding: at fit.bs[k], from line prev to next; protocol: a protocol
// switch (the new line starts jump times above the old one, or its
// start-up cost grows while bytes get cheaper), else a change of the
// cost per byte.
type switchPoint struct {
	fit        *lineFit
	k          int
	prev, next stats.Line
	jump, rms  float64
	protocol   bool
}

// switchPoints are the breaks of the series' fit that are protocol
// switches or changes of the cost per byte; none when one line fits
// within SwitchMinRMS.
func switchPoints(s *series, th Thresholds) []switchPoint {
	fit := fitLines(s, th)
	if !fit.ok || len(fit.seg.Starts) < 2 {
		return nil
	}
	rms := math.Sqrt(fit.seg.SSEs[0] / float64(len(fit.x)))
	if rms < th.SwitchMinRMS { // one line is close enough: nothing worth a finding
		return nil
	}
	var out []switchPoint
	for i := 1; i < len(fit.seg.Starts); i++ {
		k := fit.seg.Starts[i]
		prev, next := fit.seg.Lines[i-1], fit.seg.Lines[i]
		p := switchPoint{fit: fit, k: k, prev: prev, next: next, jump: next.At(fit.x[k]) / prev.At(fit.x[k]), rms: rms}
		slope := prev.Beta / next.Beta // > 1: bytes got cheaper
		rendezvous := next.Alpha >= prev.Alpha+math.Max(1, prev.Alpha/2) && slope >= th.SwitchSlope
		smooth, jumps := fit.measured(k, th)
		switch {
		case smooth:
			continue // the measured cost per byte barely moves: a curve, not a switch
		case p.jump >= th.SwitchJump && jumps || rendezvous:
			// a new line starting above the old one is a switch where the
			// times show the kink; one that starts higher and moves bytes
			// faster is a rendezvous whatever the kink
			p.protocol = true
		case slope >= th.SwitchSlope || slope <= 1/th.SwitchSlope:
		default:
			continue // a small bend, not worth a finding
		}
		out = append(out, p)
	}
	return out
}

// lineFit is a latency benchmark's time per size (sizes above 0) fitted
// with up to SwitchLines lines time = α + β·size: the sizes as x and bs,
// the times as y, and the segments; ok false for too few sizes or a
// benchmark that is no latency.
type lineFit struct {
	x, y []float64
	bs   []int64
	seg  stats.Segments
	ok   bool
}

// measured reads the measured times about the fit's break at k. jumps:
// the step into k grows the time by a larger ratio than the steps on
// either side (a protocol switch adds its handshake there, a kink up in
// the log-log curve; a curve that only bends never makes its step ratio
// a local maximum). smooth: moreover the cost per byte (Δt/Δbytes) moves
// by less than SwitchSmooth from the step before k to the step into it,
// and from that to the step after (a curve that bends gently, which
// lines fitted to it break anywhere).
// Where a side has no step (k at an end) jumps holds and smooth not.
func (f *lineFit) measured(k int, th Thresholds) (smooth, jumps bool) {
	if k < 2 || k+1 >= len(f.x) {
		return false, true
	}
	ratio := func(i int) float64 { return f.y[i] / f.y[i-1] }
	cost := func(i int) float64 { return (f.y[i] - f.y[i-1]) / (f.x[i] - f.x[i-1]) }
	jumps = ratio(k) > math.Max(ratio(k-1), ratio(k+1))
	near := func(a, b float64) bool { return a > 0 && b > 0 && max(a, b) <= (1+th.SwitchSmooth)*min(a, b) }
	smooth = !jumps && near(cost(k-1), cost(k)) && near(cost(k), cost(k+1))
	return smooth, jumps
}

// fitLines is the series' fit, computed once for the rules that read it
// (protocol switches, regimes, cliffs).
func fitLines(s *series, th Thresholds) *lineFit {
	if s.fit != nil {
		return s.fit
	}
	f := &lineFit{}
	s.fit = f
	if !s.traits().Latency {
		return f
	}
	for _, r := range s.rows {
		if t := r.primary; r.bytes > 0 && t > 0 {
			f.x, f.y, f.bs = append(f.x, float64(r.bytes)), append(f.y, t), append(f.bs, r.bytes)
		}
	}
	f.seg, f.ok = stats.FitSegments(f.x, f.y, th.SwitchMinPoints, th.SwitchLines, th.SwitchMinGain)
	return f
}

// lineText writes a fitted line as a person reads it, t ≈ α + size / bw.
// A fit across a bend can give a negative start-up or a time that falls
// with size; neither is a latency or a bandwidth, and neither is printed
// as one.
func lineText(l stats.Line) string {
	var b string
	switch {
	case l.Beta > 0:
		b = "size / " + mbps(1/l.Beta)
	case l.Beta == 0:
		b = "no growth with size"
	default:
		b = "a time that falls with size"
	}
	if l.Alpha < 0 {
		return fmt.Sprintf("t ≈ %s, less %s (no start-up cost: a line fitted across a bend)", b, us(-l.Alpha))
	}
	return fmt.Sprintf("t ≈ %s + %s", us(l.Alpha), b)
}

// bandwidthSwitch: in a bandwidth series, a size that moves more than
// BWSwitchJump times the bandwidth of the size before, where that size
// gained nothing on its own predecessor (flat or a dip): more than
// doubling the bytes explains, the MPI changed protocol there — eager
// copies up to it, a zero-copy rendezvous after (MVAPICH2's osu_bibw over
// EDR: 4094, 3940, 13761 MB/s at 4, 8, 16 KiB, a field log).
func bandwidthSwitch(in *explainInput, s *series, _ []Finding) []Finding {
	if s.metric != BW {
		return nil
	}
	var out []Finding
	for i := 2; i < len(s.rows); i++ {
		p, a, b := s.rows[i-2], s.rows[i-1], s.rows[i]
		if !(p.primary > 0 && a.primary > 0) || a.primary > 1.1*p.primary || b.primary < in.th.BWSwitchJump*a.primary {
			continue
		}
		out = append(out, Finding{Kind: KindSwitch, Severity: Info, Series: s.Series, Sizes: []int64{a.bytes, b.bytes},
			Summary: fmt.Sprintf("%s: a protocol switch between %s and %s", name(s.Series), Size(a.bytes), Size(b.bytes)),
			Numbers: []string{fmt.Sprintf("%s at %s, %s at %s, %s at %s (×%.1f for twice the bytes)",
				mbps(p.primary), Size(p.bytes), mbps(a.primary), Size(a.bytes), mbps(b.primary), Size(b.bytes), b.primary/a.primary)},
			Cause: "the bandwidth stalls, then more than doubles with the bytes: up to the switch the MPI copies messages eagerly through buffers, after it a rendezvous hands them over without copies (RDMA); moving the threshold (MV2_IBA_EAGER_THRESHOLD, UCX_RNDV_THRESH, I_MPI_EAGER_THRESHOLD, btl_*_eager_limit) moves the stall"})
	}
	return out
}
