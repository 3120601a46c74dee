package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/gomb-hpc/gomb/result"
)

// measured is a series' time per message size, interpolated linearly
// between its sizes and extrapolated along its last two (below its
// smallest size: that size's time). It is the point-to-point time the
// collectives' cost models are built of.
func measured(s *series) (func(bytes float64) float64, bool) {
	var x, y []float64
	for _, r := range s.rows {
		if t := r.primaryTime(); t > 0 && (len(x) == 0 || float64(r.bytes) > x[len(x)-1]) {
			x, y = append(x, float64(r.bytes)), append(y, t)
		}
	}
	if len(x) < 3 {
		return nil, false
	}
	return func(b float64) float64 {
		i := sort.SearchFloat64s(x, b)
		switch {
		case i == 0:
			return y[0]
		case i == len(x):
			i = len(x) - 1
		}
		slope := (y[i] - y[i-1]) / (x[i] - x[i-1])
		return y[i-1] + slope*(b-x[i-1])
	}, true
}

// collectiveModel: collectives against what the same run's reference
// ping-pong predicts for the usual algorithms of each (bench.Traits.Cost:
// every step one message of the ping-pong's measured time, so protocol
// switches are in the model), plus, for reductions, the local
// reduction's measured cost per byte (Reduce_local, when the run has it).
// A WARNING where a collective exceeds its model by more than the
// envelope the healthy corpus allows (Thresholds.CollectiveRatio).
func collectiveModel(run *result.Run, ss []*series, th Thresholds) []Finding {
	var ref, local *series
	for _, s := range ss {
		if tr := s.traits(); tr.Reference && ref == nil {
			ref = s
		} else if tr.LocalReduction && local == nil {
			local = s
		}
	}
	if ref == nil {
		return nil
	}
	p2p, ok := measured(ref)
	if !ok {
		return nil
	}
	compute := func(float64) float64 { return 0 }
	if local != nil {
		if lr, ok := measured(local); ok {
			compute = lr
		}
	}
	var out []Finding
	for _, s := range ss {
		tr := s.traits()
		if tr.Cost == nil || s.NP < 2 {
			continue
		}
		p := float64(s.NP)
		model := func(n float64) float64 {
			m := tr.Cost(p2p, n, p)
			if tr.Reduction && n > 0 {
				m += math.Ceil(math.Log2(p)) * compute(n)
			}
			return m
		}
		var hit []int64
		var worst, worstModel float64
		var worstAt int64
		for _, r := range s.rows {
			m := model(float64(r.bytes))
			t := math.Max(r.tmax, r.tavg)
			if math.IsNaN(m) || !(m > 0) || !(t > 0) || (r.bytes == 0 && !tr.Sizeless) {
				continue
			}
			if t > th.CollectiveRatio*m && t-m > th.CollectiveMinUS {
				hit = append(hit, r.bytes)
				if t/m > worst/math.Max(worstModel, 1e-300) {
					worst, worstModel, worstAt = t, m, r.bytes
				}
			}
		}
		if len(hit) < th.CollectiveMinSizes {
			continue // one size alone: noise, or a size the library handles apart
		}
		from := fmt.Sprintf("model from this run's %s (each step one message of its measured time)", ref.Benchmark)
		if local != nil && tr.Reduction {
			from += fmt.Sprintf(" and %s (the reduction's cost)", local.Benchmark)
		}
		numbers := []string{
			fmt.Sprintf("worst at %s: %s measured (t_max), %s modelled (%.1f×)", Size(worstAt), us(worst), us(worstModel), worst/worstModel),
			from + "; the better of the usual algorithms (binomial tree, ring, recursive doubling and halving)"}
		if algo := algorithms(run, tr.Collective, s.NP); algo != nil {
			numbers = append(numbers, algo.uses(worstAt, s.NP))
		}
		out = append(out, Finding{Kind: KindCollective, Severity: Warning, Series: s.Series, Sizes: hit,
			Summary: fmt.Sprintf("%s is more than %g× slower than its point-to-point model at %s", name(s.Series), th.CollectiveRatio, sizes(hit)),
			Numbers: numbers,
			Cause:   "the MPI picks a poor algorithm for this size and process count, or the collective meets contention the point-to-point test does not (ranks sharing a NIC, oversubscribed cores); try the library's alternatives (Open MPI --mca coll_tuned_use_dynamic_rules 1 with coll_tuned_<op>_algorithm, I_MPI_ADJUST_<OP>, MPIR_CVAR_<OP>_INTRA_ALGORITHM)"})
	}
	return out
}
