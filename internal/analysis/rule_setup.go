package analysis

import (
	"fmt"
	"slices"

	"github.com/gomb-hpc/gomb/result"
)

// setup: what the run's own record says about its numbers before any of
// them is read: a run that did not finish, ranks that outnumber the CPUs
// they may run on (every time then measures the scheduler), and faults
// gomb injected on purpose.
func setup(in *explainInput) []Finding {
	var out []Finding
	if f, ok := incomplete(in.run); ok {
		out = append(out, f)
	}
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

// incomplete: a run gomb measured that did not end as it was asked to —
// interrupted, ended by the watchdog or an error, or with no end record at
// all (killed: srun's second Ctrl-C, a lost node, the job's time limit).
// Its results are whole, but the sizes and benchmarks after the last one
// are missing. Imported logs have no end record to read.
func incomplete(b *result.Bundle) (Finding, bool) {
	e := b.End
	if e == nil && (b.Run.Source == nil || b.Run.Source.Format != result.RecordsFormat) {
		return Finding{}, false // an imported log, or a run not read from records
	}
	f := Finding{Kind: KindIncomplete, Severity: Warning}
	if n := len(b.Results); n > 0 {
		last := b.Results[n-1]
		f.Numbers = []string{fmt.Sprintf("%d results, the last %s at %s (np %d)", n, last.Benchmark, Size(last.Bytes), last.NP)}
	} else {
		f.Numbers = []string{"no results"}
	}
	switch {
	case e == nil:
		f.Summary = "the run has no end record: it was killed, or is still running"
		f.Cause = "a SIGKILL gives no time to write one: srun's second Ctrl-C (SIGINT, then SIGKILL within milliseconds), " +
			"the job's time limit past KillWait, a lost node, the out-of-memory killer; what follows the last result was not measured"
	case e.Status == result.EndInterrupted:
		f.Summary = "the run was interrupted (" + e.Signal + ") before it finished"
		f.Cause = "a signal to the job (Ctrl-C, scancel): the results written are whole; what follows the last one was not measured"
	case e.Status == result.EndDeadline:
		f.Summary = "the watchdog ended the run: " + e.Message
		f.Cause = "an MPI call did not return in time (a rank died, a link went down); what follows the last result was not measured"
	case e.Status == result.EndFailed:
		f.Summary = "the run ended early: " + e.Message
		f.Cause = "an MPI call failed (a rank died, a link went down); what follows the last result was not measured"
	default:
		return Finding{}, false
	}
	if e != nil && e.ElapsedS > 0 {
		f.Numbers = append(f.Numbers, fmt.Sprintf("ended after %.1f s", e.ElapsedS))
	}
	return f, true
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
