package analysis

import (
	"fmt"
	"math"
)

// collectiveModel: collectives against what the same run's PingPong
// predicts for common algorithms (t = α + size·β per message).
func collectiveModel(ss []*series, th Thresholds) []Finding {
	var pp *series
	for _, s := range ss {
		if s.traits().Reference {
			pp = s
			break
		}
	}
	if pp == nil || len(pp.rows) < 3 {
		return nil
	}
	alpha := pp.rows[0].primary
	for _, r := range pp.rows {
		if r.bytes <= 8 && r.primary > 0 {
			alpha = math.Min(alpha, r.primary)
		}
	}
	bw := peakBW(pp)
	if !(alpha > 0) || bw == 0 {
		return nil
	}
	beta := 1 / bw // µs per byte
	var out []Finding
	for _, s := range ss {
		if s.NP < 2 {
			continue
		}
		tr := s.traits()
		if tr.Cost == nil {
			continue
		}
		p := float64(s.NP)
		var hit []int64
		var worst, worstModel float64
		var worstAt int64
		for _, r := range s.rows {
			m := tr.Cost(alpha, beta, float64(r.bytes), p)
			t := math.Max(r.tmax, r.tavg)
			if math.IsNaN(m) || !(t > 0) || (r.bytes == 0 && !tr.Sizeless) {
				continue
			}
			if t > th.CollectiveRatio*m && t-m > th.CollectiveMinUS {
				hit = append(hit, r.bytes)
				if t/m > worst/math.Max(worstModel, 1e-300) {
					worst, worstModel, worstAt = t, m, r.bytes
				}
			}
		}
		if len(hit) == 0 {
			continue
		}
		out = append(out, Finding{Kind: KindCollective, Severity: Warning, Series: s.Series, Sizes: hit,
			Summary: fmt.Sprintf("%s is more than %g× slower than its point-to-point model at %s", name(s.Series), th.CollectiveRatio, sizes(hit)),
			Numbers: []string{
				fmt.Sprintf("worst at %s: %s measured (t_max), %s modelled (%.1f×)", Size(worstAt), us(worst), us(worstModel), worst/worstModel),
				fmt.Sprintf("model from this run's %s: α = %s per message, %s; the better of the usual algorithms (binomial tree, ring, recursive doubling)", pp.Benchmark, us(alpha), mbps(bw))},
			Cause: "the MPI picks a poor algorithm for this size and process count, or the collective meets contention the point-to-point test does not (ranks sharing a NIC, oversubscribed cores); try the library's alternatives (Open MPI --mca coll_tuned_use_dynamic_rules 1 with coll_tuned_<op>_algorithm, I_MPI_ADJUST_<OP>, MPIR_CVAR_<OP>_INTRA_ALGORITHM)"})
	}
	return out
}
