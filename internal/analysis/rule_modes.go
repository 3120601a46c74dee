package analysis

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// modes: IMB-EXT's two run modes of one benchmark side by side. In
// aggregate mode a rank issues a window's worth of one-sided operations
// and synchronises once; in non-aggregate mode it synchronises after
// each. Aggregate can only be as fast or faster; slower, at two sizes or
// more, the MPI serialises the operations of an epoch (no pipelining of
// puts above its eager size, an active-message fallback): a WARNING.
func modes(in *explainInput) []Finding {
	type pair struct{ agg, non *series }
	by := map[Series]*pair{}
	var order []Series
	for _, s := range in.series {
		base, mode, ok := strings.Cut(s.Benchmark, " (")
		if !ok {
			continue
		}
		k := Series{s.Suite, base, s.NP}
		if by[k] == nil {
			by[k] = &pair{}
			order = append(order, k)
		}
		switch strings.TrimSuffix(mode, ")") {
		case result.ModeAggregate:
			by[k].agg = s
		case result.ModeNonAggregate:
			by[k].non = s
		}
	}
	var out []Finding
	for _, k := range order {
		p := by[k]
		if p.agg == nil || p.non == nil || p.agg.metric == BW {
			continue
		}
		non := map[int64]float64{}
		for _, r := range p.non.rows {
			non[r.bytes] = r.primaryTime()
		}
		var hit []int64
		var worst, worstNon float64
		var worstAt int64
		for _, r := range p.agg.rows {
			a, n := r.primaryTime(), non[r.bytes]
			if r.bytes > 0 && n > 0 && a > in.th.ModesRatio*n && a-n > in.th.CliffTimeMinUS {
				hit = append(hit, r.bytes)
				if a/n > worst/max(worstNon, 1e-300) {
					worst, worstNon, worstAt = a, n, r.bytes
				}
			}
		}
		if len(hit) < 2 {
			continue
		}
		out = append(out, Finding{Kind: KindOneSided, Severity: Warning, Series: k, Sizes: hit,
			Summary: fmt.Sprintf("%s: aggregate mode is slower than non-aggregate at %s", name(k), sizes(hit)),
			Numbers: []string{fmt.Sprintf("worst at %s: %s an operation in aggregate mode, %s in non-aggregate (%.1f×)", Size(worstAt), us(worst), us(worstNon), worst/worstNon)},
			Cause:   "issuing many one-sided operations before one synchronisation should cost no more than synchronising after each; slower, the MPI serialises the operations of an epoch at these sizes (puts above its eager size not pipelined, an active-message or software fallback of its RMA component); try the library's other RMA path (Open MPI --mca osc rdma or ucx, MPICH's MPIR_CVAR_CH4_RMA_* settings) and a newer release"})
	}
	return out
}
