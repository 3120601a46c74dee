package analysis

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// efficiency: peak bandwidth against the link (inter-node runs), and a
// plateau below it; bus bandwidth for collectives.
func efficiency(s *series, link Link, loc string, th Thresholds) []Finding {
	if link.Gbps == 0 || loc == result.IntraNode || loc == result.Mixed {
		return nil
	}
	tr := s.traits()
	factor, kind := float64(tr.Directions), ""
	switch tr.Directions {
	case 1:
		kind = "bandwidth"
	case 2:
		kind = "bandwidth (both directions)"
	}
	var out []Finding
	if kind != "" {
		peak, at := 0.0, int64(0)
		var tail []float64
		for _, r := range s.rows {
			v := r.bw
			if r.bytes > 0 && v <= 0 && r.primaryTime() > 0 {
				v = float64(r.bytes) / r.primaryTime()
			}
			if v > peak {
				peak, at = v, r.bytes
			}
			tail = append(tail, v)
		}
		if peak == 0 {
			return nil
		}
		rate := link.MBps() * factor
		eff := peak / rate
		f := Finding{Kind: KindEfficiency, Severity: Info, Series: s.Series, Sizes: []int64{at},
			Summary: fmt.Sprintf("%s: peak %s %s = %.0f%% of the link", name(s.Series), kind, mbps(peak), 100*eff),
			Numbers: []string{fmt.Sprintf("%s at %s; link %.0f Gb/s = %s per direction (%s)", mbps(peak), Size(at), link.Gbps, mbps(link.MBps()), link.Source)},
			Cause:   "well-tuned fabrics reach 90-95% of the link rate with large messages"}
		if eff < th.EfficiencyWarn {
			f.Severity = Warning
			f.Summary = fmt.Sprintf("%s: peak %s %s is far below the link (%.0f%%)", name(s.Series), kind, mbps(peak), 100*eff)
			f.Cause = "a slower path than the link: TCP instead of RDMA (check the MPI's transport selection), the wrong interface or rail, a NIC in a narrow or slow PCIe slot, a small MTU, or a link trained below its rate"
		}
		out = append(out, f)
		if n := len(tail); n >= 3 {
			last := tail[n-3:]
			lo, hi := stats.MinMax(last)
			if hi <= th.PlateauSpread*lo && hi < th.PlateauBelow*rate {
				out = append(out, Finding{Kind: KindPlateau, Severity: Warning, Series: s.Series, Sizes: []int64{s.rows[n-3].bytes, s.rows[n-1].bytes},
					Summary: fmt.Sprintf("%s: bandwidth stops rising at %s, %.0f%% of the link", name(s.Series), mbps(hi), 100*hi/rate),
					Numbers: []string{fmt.Sprintf("%s to %s: %s to %s; link %s", Size(s.rows[n-3].bytes), Size(s.rows[n-1].bytes), mbps(lo), mbps(hi), mbps(rate))},
					Cause:   "a bottleneck below the link: a slower transport or interface, PCIe, memory bandwidth of a single copy, or a rate limit on the path"})
			}
		}
	}
	if tr.Bus != nil && s.NP > 1 {
		f := tr.Bus(float64(s.NP))
		peak, at := 0.0, int64(0)
		for _, r := range s.rows {
			if r.bytes > 0 && r.tavg > 0 {
				if v := float64(r.bytes) / r.tavg * f; v > peak {
					peak, at = v, r.bytes
				}
			}
		}
		if peak > 0 {
			sev := Info
			if peak < th.BusWarn*link.MBps() && at >= th.BusWarnMinBytes {
				sev = Warning
			}
			out = append(out, Finding{Kind: KindEfficiency, Severity: sev, Series: s.Series, Sizes: []int64{at},
				Summary: fmt.Sprintf("%s: peak bus bandwidth %s = %.0f%% of the link", name(s.Series), mbps(peak), 100*peak/link.MBps()),
				Numbers: []string{fmt.Sprintf("at %s; bus bandwidth = size / t_avg × %.3g (the share of the data that crosses links); link %s", Size(at), f, mbps(link.MBps()))},
				Cause:   "a collective's bus bandwidth near the link rate means its algorithm uses the links fully; far below, the algorithm or contention wastes them"})
		}
	}
	return out
}
