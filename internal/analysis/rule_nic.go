package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// nicMinShare is the share of the bytes below which an interface is not
// said to have carried a benchmark's traffic (control traffic, other
// processes on the host).
const nicMinShare = 0.05

// nicQuiet is what a host's interfaces may carry in a size's timed loop and
// still count as quiet: a pair on one host must move nothing over a NIC.
const nicQuiet = 64 << 10

// nic: which interfaces carried each benchmark's bytes (imb -nic: the
// records say what every host's interfaces counted in each size's timed
// loop). Inter-node traffic over one interface or several, named with the
// transport the environment asked for; ranks of one host whose bytes went
// through a NIC or the loopback instead of shared memory; inter-node ranks
// whose bytes no interface counted.
func nicTraffic(in *explainInput) []Finding {
	type agg struct {
		series                 Series
		sizes                  []int64
		loc                    string
		byIface                map[string]int64 // "host eth0 (net)" -> tx+rx
		net, loop, ib, payload int64
	}
	bySeries := map[Series]*agg{}
	var order []Series
	for _, r := range in.run.Results {
		if r.Status != result.StatusOK || r.NIC == nil {
			continue
		}
		s := Series{r.Suite, r.Benchmark, r.NP}
		a := bySeries[s]
		if a == nil {
			a = &agg{series: s, loc: r.Locality, byIface: map[string]int64{}}
			bySeries[s] = a
			order = append(order, s)
		}
		a.sizes = append(a.sizes, r.Bytes)
		a.payload += payload(r)
		for _, t := range hostTraffic(r.NIC) {
			n := t.TxBytes + t.RxBytes
			switch t.Kind {
			case "loopback":
				a.loop += n
			case "infiniband":
				a.ib += n
			default:
				a.net += n
			}
			if t.Kind != "loopback" {
				a.byIface[t.Name] += n
			}
		}
	}
	transport := transportOf(in.run.Run)
	var out []Finding
	for _, s := range order {
		a := bySeries[s]
		nicBytes := a.net + a.ib
		switch {
		case a.loc == result.InterNode || a.loc == result.Mixed:
			if nicBytes < nicQuiet*int64(len(a.sizes)) {
				if a.payload > 0 {
					out = append(out, Finding{Kind: KindNIC, Severity: Warning, Series: s, Sizes: a.sizes,
						Summary: fmt.Sprintf("%s crossed hosts, yet no interface counted its bytes", s.Benchmark),
						Numbers: []string{fmt.Sprintf("%s of payload in the timed loops; the hosts' interfaces counted %s, loopback %s", bytesText(a.payload), bytesText(nicBytes), bytesText(a.loop))},
						Cause:   "the traffic went through something the kernel's and the InfiniBand ports' counters do not see (a transport that bypasses both, counters not exposed in this container), or the ranks did not cross hosts as their hostnames say"})
				}
				continue
			}
			names, shares := topIfaces(a.byIface, nicBytes)
			f := Finding{Kind: KindNIC, Severity: Info, Series: s, Sizes: a.sizes, Numbers: []string{}}
			for i, n := range names {
				f.Numbers = append(f.Numbers, fmt.Sprintf("%s: %.0f%% of what the hosts' interfaces counted (%s sent and received, all hosts)", n, 100*shares[i], bytesText(a.byIface[n])))
			}
			f.Numbers = append(f.Numbers, fmt.Sprintf("payload: %s each way in the timed loops", bytesText(a.payload)))
			if len(names) == 1 {
				f.Summary = fmt.Sprintf("%s's inter-node traffic went over %s%s", s.Benchmark, names[0], transport)
			} else {
				f.Summary = fmt.Sprintf("%d interfaces carried %s's inter-node traffic: %s%s", len(names), s.Benchmark, strings.Join(names, ", "), transport)
			}
			f.Cause = "read from every host's interface counters around each size's timed loop (-nic); the interface the MPI chose is the one whose counters grew"
			out = append(out, f)
		case a.loc == result.IntraNode:
			// a host's counters count every process's bytes (the
			// launcher's, other jobs', pairs beside this one): they
			// say the ranks' bytes went through an interface only when
			// it carried as much as the ranks moved
			perSize := nicBytes / int64(max(1, len(a.sizes)))
			switch {
			case perSize > nicQuiet && nicBytes >= a.payload:
				names, _ := topIfaces(a.byIface, nicBytes)
				out = append(out, Finding{Kind: KindNIC, Severity: Warning, Series: s, Sizes: a.sizes,
					Summary: fmt.Sprintf("%s's ranks share a host, yet their bytes went out through %s", s.Benchmark, strings.Join(names, ", ")),
					Numbers: []string{fmt.Sprintf("%s on the host's interfaces, %s of payload", bytesText(nicBytes), bytesText(a.payload))},
					Cause:   "the MPI sent between ranks of one host over the network (a NIC's loopback or a switch) instead of shared memory: a shared-memory transport left out (Open MPI --mca btl without vader, UCX_TLS without sm) or not working"})
			case a.loop > nicQuiet*int64(len(a.sizes)) && a.payload > 0 && a.loop >= a.payload:
				out = append(out, Finding{Kind: KindNIC, Severity: Info, Series: s, Sizes: a.sizes,
					Summary: fmt.Sprintf("%s's ranks share a host and talk through the loopback interface (TCP)%s, not shared memory", s.Benchmark, transport),
					Numbers: []string{fmt.Sprintf("lo carried %s for %s of payload", bytesText(a.loop), bytesText(a.payload))},
					Cause:   "a TCP transport between ranks of one host: shared memory (Open MPI's vader, UCX's sm) would be faster unless the point is to measure TCP"})
			}
		}
	}
	return out
}

// payload is what a row's timed loop moved each way: its bytes a
// repetition, or its rate over its time where that says more (a window of
// messages a repetition: osu_bw's, gomb fleet's, IMB's Uniband).
func payload(r *result.Result) int64 {
	p := float64(r.Bytes) * float64(r.Repetitions)
	if moved := r.MBps * r.TAvgUS * float64(r.Repetitions); moved > p && !math.IsInf(moved, 0) {
		p = moved
	}
	return int64(min(p, math.MaxInt64/4))
}

// hostTraffic is a row's interface counts with each host's interface
// once: where two ranks of a row read one host's counters (the two ranks
// of a fleet pair on one host), the larger reading.
func hostTraffic(ts []result.NICTraffic) []result.NICTraffic {
	at := map[[2]string]int{}
	var out []result.NICTraffic
	for _, t := range ts {
		k := [2]string{t.Host, t.Name}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, t)
			continue
		}
		out[i].TxBytes, out[i].RxBytes = max(out[i].TxBytes, t.TxBytes), max(out[i].RxBytes, t.RxBytes)
	}
	return out
}

// topIfaces: the interfaces that carried at least nicMinShare of total,
// largest first, and their shares.
func topIfaces(by map[string]int64, total int64) ([]string, []float64) {
	var names []string
	for n, b := range by {
		if total > 0 && float64(b)/float64(total) >= nicMinShare {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if by[names[i]] != by[names[j]] {
			return by[names[i]] > by[names[j]]
		}
		return names[i] < names[j]
	})
	shares := make([]float64, len(names))
	for i, n := range names {
		shares[i] = float64(by[n]) / float64(total)
	}
	return names, shares
}

// transportOf says what the run asked the MPI to use, as " (Open MPI btl
// tcp,self)": the transport-selection control variables MPI_T read (a
// parameter file's settings included), else their environment variables
// (OMPI_MCA_name, MPICH's MPIR_CVAR_ names), UCX's and libfabric's
// variables, MPICH's device; "" when nothing says.
func transportOf(run *result.Run) string {
	if run == nil {
		return ""
	}
	var parts []string
	add := func(label, v string) {
		if p := label + " " + v; v != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	for _, tv := range result.TransportVars {
		v := run.MPI.Vars[tv.Name]
		if v == "" {
			v = cmp.Or(run.Env["OMPI_MCA_"+tv.Name], run.Env[tv.Name])
		}
		add(tv.Label, v)
	}
	for _, kv := range []struct{ key, name string }{
		{"UCX_TLS", "UCX_TLS"}, {"UCX_NET_DEVICES", "UCX_NET_DEVICES"}, {"FI_PROVIDER", "libfabric"},
	} {
		add(kv.name, run.Env[kv.key])
	}
	if i := strings.Index(run.MPI.Library, "MPICH Device:"); i >= 0 {
		dev := strings.TrimSpace(strings.SplitN(run.MPI.Library[i+len("MPICH Device:"):], "\n", 2)[0])
		parts = append(parts, "MPICH "+dev)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// bytesText writes an amount of traffic in binary units, to a tenth (Size
// writes exact message sizes).
func bytesText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
