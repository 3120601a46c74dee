package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// oneSidedPath: one-sided operations of hundreds of µs over TCP are the
// MPI emulating RMA in software, an operation completing only when the
// target enters the library (no asynchronous progress): said once for
// the run (INFO), with the two-sided latency where the run or its log
// has one. No RDMA transport answers a put that slowly, so a run that
// names no transport is read the same way.
func oneSidedPath(in *explainInput) []Finding {
	th := in.th
	var slow []string
	var sizes []int64
	worst := 0.0
	for _, s := range in.series {
		if !s.traits().OneSided || s.metric == BW {
			continue
		}
		for _, r := range s.rows {
			if t := r.primaryTime(); r.bytes > 0 && t > 0 {
				if t >= th.OneSidedSlowUS {
					slow = append(slow, fmt.Sprintf("%s %s at %s", name(s.Series), us(t), Size(r.bytes)))
					sizes = append(sizes, r.bytes)
					worst = max(worst, t)
				}
				break // the smallest message the series moved
			}
		}
	}
	tcp := in.ev.provider == "tcp" || in.ev.provider == "sockets"
	if len(slow) == 0 || in.ev.provider != "" && !tcp || in.loc == result.IntraNode {
		return nil // another transport named, or one node: no TCP to blame
	}
	f := Finding{Kind: KindOneSided, Severity: Info, Series: Series{}, Sizes: slices.Compact(slices.Sorted(slices.Values(sizes))),
		Summary: fmt.Sprintf("one-sided operations take %s: software RMA over TCP without asynchronous progress", listMax(slow, 3)),
		Numbers: []string{fmt.Sprintf("above %s a one-sided operation has no NIC doing it: the MPI emulates it with messages", us(th.OneSidedSlowUS))}}
	if tcp {
		f.Numbers = append(f.Numbers, "the transport the run names: TCP, from "+in.ev.providerFrom)
	}
	if lat, from, _ := smallLatency(in.series, false); from != nil {
		f.Numbers = append(f.Numbers, fmt.Sprintf("%.0f× the run's two-sided latency (%s %s)", worst/lat, from.traits().Label, us(lat)))
	} else if ref, line := peerReference(in); ref != nil {
		if lat, _, _ := smallLatency([]*series{ref}, false); lat > 0 {
			f.Numbers = append(f.Numbers, fmt.Sprintf("%.0f× the log's two-sided latency (%s, line %d: %s)", worst/lat, ref.traits().Label, line, us(lat)))
		}
	}
	f.Cause = strings.Join([]string{
		"over TCP no NIC carries one-sided operations: the MPI emulates them with messages (Open MPI's osc pt2pt or rdma over btl tcp, MPICH's CH4 active messages, UCX's software RMA over tcp)",
		"and an operation completes only when the target process enters the MPI library to progress it, a polling interval or the target's next call later",
		"turn asynchronous progress on (MPICH: MPIR_CVAR_ASYNC_PROGRESS=1; Open MPI 5: --mca opal_async_progress 1; UCX_ASYNC_MODE=thread) or run over an RDMA transport"}, "; ")
	return []Finding{f}
}

// listMax joins up to n items, "and k more" after them.
func listMax(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
