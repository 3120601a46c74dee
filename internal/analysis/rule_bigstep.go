package analysis

import (
	"fmt"
	"math"
	"strings"
)

// bigStep is a collective's step between adjacent sizes that no protocol
// switch makes (Thresholds.BigStep): factor the time's ratio; stays: the
// next sizes (two, or those there are) keep CliffStay of it; last: the
// step is at the largest size, which nothing after confirms.
type bigStep struct {
	j      jump
	factor float64
	stays  bool
	last   bool
}

// bigSteps are the series' big steps; none for a series that is no
// collective or reads bandwidth.
func bigSteps(in *explainInput, s *series) []bigStep {
	if !s.traits().Group || s.metric == BW {
		return nil
	}
	th := in.th
	least := th.BigStep
	if gpuBuffers(in.run.Run) {
		least = th.BigStepGPU
	}
	var p2p func(float64) float64
	if ref := reference(in.series); ref != nil {
		p2p, _ = measured(ref)
	} else if ref, _ := peerReference(in); ref != nil {
		p2p, _ = measured(ref)
	}
	stages := math.Ceil(math.Log2(float64(max(s.NP, 2))))
	var out []bigStep
	for i := 1; i < len(s.rows); i++ {
		a, b := s.rows[i-1], s.rows[i]
		ta, tb := a.primaryTime(), b.primaryTime()
		if a.bytes == 0 || b.bytes > 2*a.bytes || !(ta > 0) || tb < least*ta {
			continue
		}
		// what a protocol switch can add: a few messages a stage
		allowed := th.BigStepMinUS
		if p2p != nil {
			allowed = math.Max(allowed, th.BigStepP2P*stages*p2p(float64(b.bytes)))
		}
		if tb-ta <= allowed {
			continue
		}
		x := bigStep{j: jump{a: a, b: b, ta: ta, tb: tb}, factor: tb / ta, stays: true, last: i == len(s.rows)-1}
		for _, r := range s.rows[i+1 : min(i+3, len(s.rows))] {
			x.stays = x.stays && r.primaryTime() >= in.th.CliffStay*tb
		}
		out = append(out, x)
	}
	return out
}

// bigStepFinding names a collective's big steps: a WARNING where one
// persists over the larger sizes, else INFO (a step at the largest size,
// or one the next sizes do not keep).
func bigStepFinding(in *explainInput, s *series, bigs []bigStep, algo *algoTable) Finding {
	f := Finding{Kind: KindCliff, Severity: Info, Series: s.Series}
	var where []string
	persists := false
	for _, x := range bigs {
		f.Sizes = append(f.Sizes, x.j.b.bytes)
		where = append(where, fmt.Sprintf("×%.1f from %s to %s", x.factor, Size(x.j.a.bytes), Size(x.j.b.bytes)))
		word := "and the larger sizes keep it"
		switch {
		case x.last:
			word = "at the largest size: rerun with larger sizes to see it persist"
		case !x.stays:
			word = "and the next sizes do not keep it: rerun to tell a switch of algorithm from noise"
		default:
			persists = true
		}
		f.Numbers = append(f.Numbers, fmt.Sprintf("%s → %s: %s → %s (×%.1f for ×%.0f the bytes), %s", Size(x.j.a.bytes), Size(x.j.b.bytes),
			us(x.j.ta), us(x.j.tb), x.factor, float64(x.j.b.bytes)/float64(x.j.a.bytes), word))
		if c := algo.change(x.j.a.bytes, x.j.b.bytes, s.NP); c != "" {
			f.Numbers = append(f.Numbers, c)
		}
	}
	if persists {
		f.Severity = Warning
	}
	f.Summary = fmt.Sprintf("%s: time jumps %s: far more than any protocol switch adds", name(s.Series), strings.Join(where, ", "))
	f.Cause = "a collective's algorithm (or its protocol for these sizes) changes here and the new one is far slower at this process count" +
		gpuWords(in) + ": worth a look at the library's algorithm selection — MPICH and Cray MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM " +
		"(and MPICH_<COLL>_* on Cray), Open MPI's coll tuned rules (--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_<coll>_algorithm N, " +
		"or a rules file), UCC's (UCC_TL_*_TUNE, UCC_CL_BASIC_TLS), Intel MPI's I_MPI_ADJUST_<COLL>; rerun these sizes with the algorithm of the sizes before forced"
	return f
}

// gpuWords says what GPU buffers add to a collective's cause.
func gpuWords(in *explainInput) string {
	if !gpuBuffers(in.run.Run) {
		return ""
	}
	return " (with messages in GPU memory, often a switch from a device-aware path, NCCL/RCCL or UCC's, to staging through the host)"
}
