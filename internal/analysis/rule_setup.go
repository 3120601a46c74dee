package analysis

import (
	"fmt"
	"slices"

	"github.com/gomb-hpc/gomb/result"
)

// setup: what the run's own record says about its numbers before any of
// them is read: ranks that outnumber the CPUs they may run on (every time
// then measures the scheduler), and faults gomb injected on purpose.
func setup(in *explainInput) []Finding {
	var out []Finding
	if f, ok := oversubscribed(in.run.Run.Ranks); ok {
		out = append(out, f)
	}
	if v := in.run.Run.Env["GOMB_FAULT"]; v != "" {
		out = append(out, Finding{Kind: KindFault, Severity: Info,
			Summary: "the run was made with a fault injected: GOMB_FAULT=" + v,
			Cause:   "gomb's fault injection (tests, explain's corpus): the anomalies it makes are on purpose; never a baseline"})
	}
	return out
}

// oversubscribed: on some host, more ranks than the CPUs their affinity
// lets them run on (all ranks unbound on a host with fewer cores, or
// bound to the same cores).
func oversubscribed(ranks []result.Rank) (Finding, bool) {
	type placed struct {
		rank int
		cpus []int
	}
	byHost := map[string][]placed{}
	var hosts []string
	for _, rk := range ranks {
		cpus, ok := result.ParseCPUList(rk.CPUs)
		if !ok {
			return Finding{}, false // a rank without a known affinity: nothing to say
		}
		if byHost[rk.Host] == nil {
			hosts = append(hosts, rk.Host)
		}
		byHost[rk.Host] = append(byHost[rk.Host], placed{rk.Rank, cpus})
	}
	var worst Finding
	excess := 0
	for _, h := range hosts {
		ps := byHost[h]
		var union []int
		candidates := [][]int{}
		for _, p := range ps {
			union = append(union, p.cpus...)
			candidates = append(candidates, p.cpus)
		}
		slices.Sort(union)
		candidates = append(candidates, slices.Compact(union))
		for _, set := range candidates {
			var within []int // ranks that may run only on set's CPUs
			for _, p := range ps {
				if subset(p.cpus, set) {
					within = append(within, p.rank)
				}
			}
			if e := len(within) - len(set); e > excess {
				excess = e
				worst = Finding{Kind: KindOversubscribed, Severity: Warning,
					Summary: fmt.Sprintf("%d ranks on %s share %d CPU(s) (%s): the ranks take turns on the cores", len(within), h, len(set), result.CPUList(set)),
					Numbers: []string{fmt.Sprintf("ranks %s on %s, each allowed CPUs within %s", result.CPUList(within), h, result.CPUList(set))},
					Cause: "more ranks than the CPUs they may run on: a rank waiting in MPI spins while its partner waits for the core, so the times measure the scheduler (time slices of milliseconds), not the interconnect; " +
						"run at most one rank per core (fewer ranks per host, more hosts) or fix the binding (mpirun --bind-to core --map-by core, srun --cpu-bind=cores); the other findings of this run may all follow from it: fix the placement and rerun first"}
			}
		}
	}
	return worst, excess > 0
}

// subset: every element of a (sorted) is in b (sorted).
func subset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}
