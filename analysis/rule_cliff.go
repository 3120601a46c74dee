package analysis

import (
	"fmt"
	"sort"
	"strings"
)

// cliffs: time jumps between adjacent sizes by more than the extra bytes
// can explain at the series' best bandwidth, and stays up at the larger
// sizes (or bandwidth drops and stays down); one finding per series. A
// size far above both neighbours that the next sizes do not follow is a
// spike: noise during that size.
func cliffs(s *series, switches []Finding, th Thresholds) []Finding {
	var jumps, spikes []jump
	n := len(s.rows)
	val := func(r row) float64 {
		if s.metric == BW {
			return r.primary
		}
		return r.primaryTime()
	}
	bw := peakBW(s)
	for i := 1; i < n; i++ {
		a, b := s.rows[i-1], s.rows[i]
		ta, tb := val(a), val(b)
		if a.bytes == 0 || !(ta > 0) || !(tb > 0) {
			continue
		}
		j := jump{a: a, b: b, ta: ta, tb: tb}
		var big, stays bool
		if s.metric == BW { // bandwidth falling as messages grow
			big = a.bytes >= th.CliffBWMinBytes && tb < th.CliffBWDrop*ta
			stays = true
			for _, c := range s.rows[i+1:] {
				stays = stays && val(c) < th.CliffBWStay*ta
			}
		} else {
			if bw == 0 {
				return nil
			}
			j.want = ta + float64(b.bytes-a.bytes)/bw
			big = tb > th.CliffTimeRatio*j.want && tb-j.want > th.CliffTimeMinUS
			stays = true
			for _, c := range s.rows[i+1:] {
				stays = stays && val(c) >= th.CliffStay*tb
			}
		}
		switch {
		case big && stays:
			jumps = append(jumps, j)
		case big:
			spikes = append(spikes, j)
		}
	}
	var out []Finding
	if len(jumps) > 0 {
		f := Finding{Kind: KindCliff, Severity: Warning, Series: s.Series}
		var where []string
		for _, j := range jumps {
			f.Sizes = append(f.Sizes, j.b.bytes)
			where = append(where, Size(j.a.bytes)+" → "+Size(j.b.bytes))
		}
		f.Numbers = describeJumps(jumps, s.metric, bw)
		if len(f.Numbers) > 3 { // the three largest jumps are enough to read
			sort.SliceStable(jumps, func(i, k int) bool { return jumps[i].tb/jumps[i].ta > jumps[k].tb/jumps[k].ta })
			f.Numbers = append(f.Numbers[:0], describeJumps(jumps[:3], s.metric, bw)...)
			f.Numbers = append(f.Numbers, fmt.Sprintf("and %d more", len(jumps)-3))
		}
		verb := "time jumps"
		if s.metric == BW {
			verb = "bandwidth drops"
		}
		f.Summary = fmt.Sprintf("%s: %s at %s and does not recover", name(s.Series), verb, strings.Join(where, ", "))
		f.Cause = "a protocol or algorithm switch (eager to rendezvous adds a handshake; a collective changing algorithm; a registration or pipelining limit) or a misconfiguration that sends these sizes down a slower path (MTU, a fallback transport); if it sits at the MPI's switch point, move the threshold (Open MPI btl_*_eager_limit, UCX_RNDV_THRESH, I_MPI_EAGER_THRESHOLD, MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE)"
		if f.Sizes[len(f.Sizes)-1] >= 256<<10 {
			f.Cause += "; from a few hundred KiB on, buffers outgrowing the CPU caches slow shared-memory copies the same way"
		}
		for _, sw := range switches {
			for _, b := range f.Sizes {
				if sw.Sizes[1] == b {
					f.Cause = fmt.Sprintf("the protocol switch at %s (see that finding); otherwise ", Size(b)) + f.Cause
				}
			}
		}
		out = append(out, f)
	}
	if len(spikes) > 0 {
		f := Finding{Kind: KindVariability, Severity: Info, Series: s.Series}
		for _, j := range spikes {
			f.Sizes = append(f.Sizes, j.b.bytes)
			f.Numbers = append(f.Numbers, fmt.Sprintf("%s: %s after %s at %s, and the larger sizes fall back", Size(j.b.bytes), us(j.tb), us(j.ta), Size(j.a.bytes)))
		}
		if s.metric == BW {
			f.Numbers = nil
			for _, j := range spikes {
				f.Numbers = append(f.Numbers, fmt.Sprintf("%s: %s after %s at %s, and the larger sizes recover", Size(j.b.bytes), mbps(j.tb), mbps(j.ta), Size(j.a.bytes)))
			}
		}
		f.Summary = fmt.Sprintf("%s: outlying sizes %s that the neighbouring sizes do not share", name(s.Series), sizes(f.Sizes))
		f.Cause = "noise while these sizes ran (other load, interrupts, frequency changes); rerun, or compare several launches with gomb compare"
		out = append(out, f)
	}
	return out
}

// jump is a step between adjacent sizes: values ta and tb, and want, the
// time the extra bytes explain.
type jump struct {
	a, b   row
	ta, tb float64
	want   float64
}

func describeJumps(js []jump, m Metric, bw float64) []string {
	var out []string
	for _, j := range js {
		if m == BW {
			out = append(out, fmt.Sprintf("%s at %s, %s at %s (%.0f%% lower, and lower still at the larger sizes)",
				mbps(j.ta), Size(j.a.bytes), mbps(j.tb), Size(j.b.bytes), 100*(1-j.tb/j.ta)))
		} else {
			out = append(out, fmt.Sprintf("%s → %s: %s → %s (×%.2f for ×%.0f the bytes; at the best bandwidth seen, %s, %s)",
				Size(j.a.bytes), Size(j.b.bytes), us(j.ta), us(j.tb), j.tb/j.ta, float64(j.b.bytes)/float64(j.a.bytes), mbps(bw), us(j.want)))
		}
	}
	return out
}
