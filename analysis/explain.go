package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/stats"
)

// Finding is one thing explain says about a run: what (Summary), the
// numbers behind it, and the likely cause.
type Finding struct {
	Kind     string // one of the Kind* constants
	Severity string // "warning" or "info"
	Series   Series // the benchmark and process count ("" benchmark: the whole run)
	Sizes    []int64
	Summary  string
	Numbers  []string
	Cause    string
}

// The kinds of findings.
const (
	KindVariability = "variability"
	KindBimodal     = "bimodal"
	KindCliff       = "cliff"
	KindSwitch      = "protocol-switch"
	KindPlateau     = "plateau"
	KindEfficiency  = "link-efficiency"
	KindCollective  = "collective-model"
	KindFabric      = "fabric"
	KindStraggler   = "straggler"
)

// Severities.
const (
	Warning = "warning"
	Info    = "info"
)

// Link is the network link rate explain measures efficiency against.
type Link struct {
	Gbps   float64
	Source string // "-link", or the host and link it was read from
}

// MBps is the link's rate in MB/s (10^6 bytes).
func (l Link) MBps() float64 { return l.Gbps * 1e9 / 8 / 1e6 }

// RunLink is the fastest usable link the run's hosts recorded (InfiniBand
// first, as MPI libraries prefer it); zero if none.
func RunLink(r *result.Run) Link {
	var best result.Link
	host := ""
	for _, rk := range r.Ranks {
		for _, l := range rk.Links {
			if l.State != "" && l.State != "up" && l.State != "active" {
				continue
			}
			better := l.Kind == "infiniband" && best.Kind != "infiniband" ||
				l.Kind == best.Kind && l.Gbps > best.Gbps || best.Kind == ""
			if better {
				best, host = l, rk.Host
			}
		}
	}
	if best.Gbps == 0 {
		return Link{}
	}
	return Link{Gbps: best.Gbps, Source: fmt.Sprintf("%s %s (%s)", host, best.Name, best.Kind)}
}

// Point-to-point benchmarks whose time is one message's latency, and the
// symmetric collectives in which no rank has a special role.
var (
	latencyBenches = map[string]bool{"PingPong": true, "PingPongSpecificSource": true, "PingPongAnySource": true,
		"PingPing": true, "PingPingSpecificSource": true, "PingPingAnySource": true, "latency": true, "multi_lat": true}
	rootedBenches = map[string]bool{"Bcast": true, "Reduce": true, "Gather": true, "Gatherv": true, "Scatter": true,
		"Scatterv": true, "bcast": true, "reduce": true, "gather": true, "gatherv": true, "scatter": true, "scatterv": true,
		"ibcast": true, "ireduce": true, "igather": true, "iscatter": true}
)

// row is one size of a series, the -multi groups folded (median).
type row struct {
	bytes            int64
	tmin, tmax, tavg float64
	bw               float64
	primary          float64 // the primary metric
	res              []*result.Result
}

// series is one benchmark at one process count, rows by size.
type series struct {
	Series
	metric Metric
	rows   []row
}

func collect(r *result.Bundle) []*series {
	by := map[Series]map[int64][]*result.Result{}
	for _, x := range r.Results {
		if x.Status != result.StatusOK || x.Cold {
			continue
		}
		s := Series{x.Suite, x.Benchmark, x.NP}
		if by[s] == nil {
			by[s] = map[int64][]*result.Result{}
		}
		by[s][x.Bytes] = append(by[s][x.Bytes], x)
	}
	var out []*series
	for s, sizes := range by {
		se := &series{Series: s, metric: Primary(s.Suite, s.Benchmark)}
		for b, xs := range sizes {
			med := func(f func(*result.Result) float64) float64 {
				v := make([]float64, len(xs))
				for i, x := range xs {
					v[i] = f(x)
				}
				return stats.Median(v)
			}
			rw := row{bytes: b, res: xs,
				tmin: med(func(x *result.Result) float64 { return x.TMinUS }),
				tmax: med(func(x *result.Result) float64 { return x.TMaxUS }),
				tavg: med(func(x *result.Result) float64 { return x.TAvgUS }),
				bw:   med(func(x *result.Result) float64 { return x.MBps })}
			rw.primary = med(func(x *result.Result) float64 { return se.metric.Value(x) })
			se.rows = append(se.rows, rw)
		}
		sort.Slice(se.rows, func(i, j int) bool { return se.rows[i].bytes < se.rows[j].bytes })
		out = append(out, se)
	}
	sort.Slice(out, func(i, j int) bool {
		return Key{out[i].Suite, out[i].Benchmark, out[i].NP, 0}.Less(Key{out[j].Suite, out[j].Benchmark, out[j].NP, 0})
	})
	return out
}

// ExplainOptions tune explain.
type ExplainOptions struct {
	Link Link // zero: the run's own record of its links, if any
}

// Explain lists what stands out in a run, warnings first.
func Explain(r *result.Bundle, o ExplainOptions) []Finding {
	if o.Link.Gbps == 0 {
		o.Link = RunLink(r.Run)
	}
	ss := collect(r)
	loc := Locality([]*result.Bundle{r})
	var fs []Finding
	fs = append(fs, fabric(ss, loc)...)
	for _, s := range ss {
		fs = append(fs, variability(s)...)
		fs = append(fs, bimodal(s)...)
		sw := protocolSwitch(s)
		fs = append(fs, sw...)
		fs = append(fs, cliffs(s, sw)...)
		fs = append(fs, efficiency(s, o.Link, loc)...)
	}
	fs = append(fs, collectiveModel(ss)...)
	fs = append(fs, stragglers(r)...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity == Warning && fs[j].Severity != Warning })
	return fs
}

// sizes writes a list of sizes compactly: "8 KiB", "8 KiB-64 KiB (4 sizes)".
func sizes(bs []int64) string {
	switch len(bs) {
	case 0:
		return ""
	case 1:
		return Size(bs[0])
	case 2:
		return Size(bs[0]) + " and " + Size(bs[1])
	}
	return fmt.Sprintf("%s to %s (%d sizes)", Size(bs[0]), Size(bs[len(bs)-1]), len(bs))
}

func us(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f µs", v)
	case v >= 10:
		return fmt.Sprintf("%.1f µs", v)
	}
	return fmt.Sprintf("%.2f µs", v)
}

func mbps(v float64) string { return fmt.Sprintf("%.0f MB/s", v) }

func name(s Series) string {
	if s.NP > 0 {
		return fmt.Sprintf("%s (np %d)", s.Benchmark, s.NP)
	}
	return s.Benchmark
}

// variability: the slowest rank took more than 3 times as long as the
// fastest (IMB's t_min and t_max are over the ranks).
func variability(s *series) []Finding {
	var hit []int64
	var worst row
	for _, r := range s.rows {
		if r.tmin > 0 && r.tmax > 3*r.tmin && r.tmax >= 1 {
			hit = append(hit, r.bytes)
			if worst.tmin == 0 || r.tmax/r.tmin > worst.tmax/worst.tmin {
				worst = r
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	f := Finding{Kind: KindVariability, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: the slowest rank took more than 3× as long as the fastest at %s", name(s.Series), sizes(hit)),
		Numbers: []string{fmt.Sprintf("worst at %s: t_min %s, t_max %s (%.1f×), t_avg %s", Size(worst.bytes), us(worst.tmin),
			us(worst.tmax), worst.tmax/worst.tmin, us(worst.tavg))}}
	if rootedBenches[s.Benchmark] {
		f.Severity = Info
		f.Cause = "expected in a rooted collective: the root returns as soon as its part is handed off, the ranks farthest down the tree last; read t_max (the collective's completion) rather than t_min"
	} else {
		f.Severity = Warning
		f.Cause = "contention or interference: ranks placed unevenly (another socket or node), ranks not bound to cores, oversubscription, or noise from daemons and other jobs; bind ranks (--bind-to core), keep the machine quiet and rerun"
	}
	return []Finding{f}
}

// bimodal: a rank's repetitions fall into two separate groups.
func bimodal(s *series) []Finding {
	var hit []int64
	var ex stats.Modes
	exRank := -1
	for _, r := range s.rows {
		for _, x := range r.res {
			found := false
			for i, smp := range x.SamplesUS {
				if len(smp) < 20 {
					continue
				}
				if m, ok := stats.Bimodal(smp, 0.1, 1.5); ok {
					if !found {
						hit = append(hit, r.bytes)
						found = true
					}
					if exRank < 0 || m.HiCentre/m.LowCentre > ex.HiCentre/ex.LowCentre {
						ex, exRank = m, x.Ranks[i]
					}
				}
			}
			if found {
				break
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	sev := Info
	if len(hit)*4 >= len(s.rows) {
		sev = Warning
	}
	return []Finding{{Kind: KindBimodal, Severity: sev, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: repetitions fall into two groups at %s", name(s.Series), sizes(hit)),
		Numbers: []string{fmt.Sprintf("clearest on rank %d: %.0f%% near %s, %.0f%% near %s", exRank, 100*ex.LowShare,
			us(ex.LowCentre), 100*(1-ex.LowShare), us(ex.HiCentre))},
		Cause: "a periodic disturbance (timer interrupts, a daemon, frequency changes) or two paths (a rank migrating between cores or sockets, messages over two rails, a progress thread sharing the core); pin ranks and see which repetitions are slow (samples_us in the records)"}}
}

// peakBW is the series' highest bandwidth in bytes per µs (= MB/s),
// from its sizes and times.
func peakBW(s *series) float64 {
	best := 0.0
	for _, r := range s.rows {
		if r.bytes > 0 && r.tavg > 0 {
			best = math.Max(best, float64(r.bytes)/r.primaryTime())
		}
	}
	return best
}

func (r row) primaryTime() float64 {
	if r.tmax > 0 && r.tavg > 0 {
		return r.tavg
	}
	return math.Max(r.tavg, r.tmax)
}

// cliffs: time jumps between adjacent sizes by more than the extra bytes
// can explain at the series' best bandwidth, and stays up at the larger
// sizes (or bandwidth drops and stays down); one finding per series. A
// size far above both neighbours that the next sizes do not follow is a
// spike: noise during that size.
func cliffs(s *series, switches []Finding) []Finding {
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
			big = a.bytes >= 1024 && tb < 0.8*ta
			stays = true
			for _, c := range s.rows[i+1:] {
				stays = stays && val(c) < 0.9*ta
			}
		} else {
			if bw == 0 {
				return nil
			}
			j.want = ta + float64(b.bytes-a.bytes)/bw
			big = tb > 1.5*j.want && tb-j.want > 0.5
			stays = true
			for _, c := range s.rows[i+1:] {
				stays = stays && val(c) >= 0.7*tb
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

// protocolSwitch: lines time = α + β·size, one per protocol, fit the
// point-to-point latency far better than one line; where a line starts
// with a jump above the previous one, the protocol changed (eager to
// rendezvous); where only the slope changes, the copy mechanism did.
func protocolSwitch(s *series) []Finding {
	if !latencyBenches[s.Benchmark] {
		return nil
	}
	var x, y []float64
	var bs []int64
	for _, r := range s.rows {
		if t := r.primary; r.bytes > 0 && t > 0 {
			x, y, bs = append(x, float64(r.bytes)), append(y, t), append(bs, r.bytes)
		}
	}
	seg, ok := stats.FitSegments(x, y, 3, 3, 0.3)
	if !ok || len(seg.Starts) < 2 {
		return nil
	}
	rms := math.Sqrt(seg.SSEs[0] / float64(len(x)))
	if rms < 0.1 { // one line is within 10%: nothing worth a finding
		return nil
	}
	var out []Finding
	for i := 1; i < len(seg.Starts); i++ {
		k := seg.Starts[i]
		prev, next := seg.Lines[i-1], seg.Lines[i]
		jump := next.At(x[k]) / prev.At(x[k])
		f := Finding{Kind: KindSwitch, Severity: Info, Series: s.Series, Sizes: []int64{bs[k-1], bs[k]},
			Numbers: []string{
				fmt.Sprintf("up to %s: t ≈ %s + size / %s", Size(bs[k-1]), us(prev.Alpha), mbps(1/prev.Beta)),
				fmt.Sprintf("from %s: t ≈ %s + size / %s", Size(bs[k]), us(next.Alpha), mbps(1/next.Beta)),
				fmt.Sprintf("at %s the new line gives %s where the old one would give %s (×%.2f); one line for all sizes misses by %.0f%% (rms)",
					Size(bs[k]), us(next.At(x[k])), us(prev.At(x[k])), jump, 100*rms)}}
		slope := prev.Beta / next.Beta // > 1: bytes got cheaper
		rendezvous := next.Alpha >= prev.Alpha+math.Max(1, prev.Alpha/2) && slope >= 1.5
		switch {
		case jump >= 1.3 || rendezvous:
			f.Summary = fmt.Sprintf("%s: a protocol switch between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "the MPI changes protocol here: small messages go eagerly (copied through buffers), larger ones by rendezvous (a handshake, then a zero-copy or RDMA transfer), which costs a round trip more but moves bytes faster"
		case slope >= 1.5 || slope <= 1/1.5:
			f.Summary = fmt.Sprintf("%s: the cost per byte changes between %s and %s", name(s.Series), Size(bs[k-1]), Size(bs[k]))
			f.Cause = "a change of copy mechanism or pipelining at this size (e.g. copies through a bounce buffer below, fragments or a single-copy path above), or buffers leaving a cache"
		default:
			continue // a small bend, not worth a finding
		}
		out = append(out, f)
	}
	return out
}

// efficiency: peak bandwidth against the link (inter-node runs), and a
// plateau below it; bus bandwidth for collectives.
func efficiency(s *series, link Link, loc string) []Finding {
	if link.Gbps == 0 || loc == result.IntraNode || loc == result.Mixed {
		return nil
	}
	factor, kind := 1.0, ""
	switch {
	case s.Benchmark == "PingPong" || s.Benchmark == "bw" || s.Benchmark == "latency" || s.Benchmark == "put_bw" || s.Benchmark == "get_bw":
		kind = "bandwidth"
	case s.Benchmark == "PingPing" || s.Benchmark == "Sendrecv" || s.Benchmark == "Exchange" || s.Benchmark == "bibw" ||
		s.Benchmark == "Biband" || s.Benchmark == "put_bibw":
		kind, factor = "bandwidth (both directions)", 2
	}
	p := float64(s.NP)
	bus := map[string]float64{"Allreduce": 2 * (p - 1) / p, "allreduce": 2 * (p - 1) / p, "Allgather": p - 1, "allgather": p - 1,
		"Alltoall": p - 1, "alltoall": p - 1, "Bcast": 1, "bcast": 1, "Reduce_scatter": (p - 1) / p, "reduce_scatter": (p - 1) / p}
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
		if eff < 0.5 {
			f.Severity = Warning
			f.Summary = fmt.Sprintf("%s: peak %s %s is far below the link (%.0f%%)", name(s.Series), kind, mbps(peak), 100*eff)
			f.Cause = "a slower path than the link: TCP instead of RDMA (check the MPI's transport selection), the wrong interface or rail, a NIC in a narrow or slow PCIe slot, a small MTU, or a link trained below its rate"
		}
		out = append(out, f)
		if n := len(tail); n >= 3 {
			last := tail[n-3:]
			lo, hi := stats.MinMax(last)
			if hi <= 1.05*lo && hi < 0.7*rate {
				out = append(out, Finding{Kind: KindPlateau, Severity: Warning, Series: s.Series, Sizes: []int64{s.rows[n-3].bytes, s.rows[n-1].bytes},
					Summary: fmt.Sprintf("%s: bandwidth stops rising at %s, %.0f%% of the link", name(s.Series), mbps(hi), 100*hi/rate),
					Numbers: []string{fmt.Sprintf("%s to %s: %s to %s; link %s", Size(s.rows[n-3].bytes), Size(s.rows[n-1].bytes), mbps(lo), mbps(hi), mbps(rate))},
					Cause:   "a bottleneck below the link: a slower transport or interface, PCIe, memory bandwidth of a single copy, or a rate limit on the path"})
			}
		}
	}
	if f, ok := bus[s.Benchmark]; ok && s.NP > 1 {
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
			if peak < 0.5*link.MBps() && at >= 1<<20 {
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

// fabric: the class of interconnect the small-message latency implies.
func fabric(ss []*series, loc string) []Finding {
	var lat float64
	var from *series
	var at int64
	for _, s := range ss {
		if s.Benchmark != "PingPong" && s.Benchmark != "latency" {
			continue
		}
		for _, r := range s.rows {
			if r.bytes <= 8 && r.primary > 0 && (from == nil || r.primary < lat) {
				lat, from, at = r.primary, s, r.bytes
			}
		}
	}
	if from == nil {
		return nil
	}
	var class, cause string
	sev := Info
	switch {
	case lat < 1:
		class = "shared memory"
		cause = "below a microsecond no network is involved: the two ranks share a node"
		if loc == result.InterNode {
			sev, cause = Warning, "the run says inter-node, yet sub-microsecond latency means the two ranks share a node: check the host list and the rank placement"
		}
	case lat < 4:
		class = "RDMA class (InfiniBand, RoCE, Omni-Path, Slingshot)"
		cause = "1-4 µs is what kernel-bypass RDMA fabrics give between nodes"
	case lat < 10:
		class = "a slow RDMA path or a user-space Ethernet stack"
		cause = "4-10 µs is slow for RDMA (an extra switch hop, a software fallback) and fast for TCP"
	default:
		class = "Ethernet/TCP class (kernel sockets)"
		cause = "10 µs and more is the kernel TCP/IP path; on a machine with an RDMA fabric this means the MPI is not using it (check the transport: UCX_TLS, FI_PROVIDER, --mca btl/pml, I_MPI_FABRICS)"
	}
	switch {
	case loc == result.IntraNode && lat >= 4:
		sev, cause = Warning, "the ranks share a node, yet latency is network-like: the MPI may be sending through a network transport (btl tcp, a NIC loopback) instead of shared memory, or the cores are oversubscribed"
	case loc == result.IntraNode && lat >= 1:
		class = "slow shared memory"
		cause = "the ranks share a node, but shared memory usually answers within a microsecond: ranks on different sockets, unbound or oversubscribed cores, or a busy machine"
	}
	label := from.Benchmark
	if label == "latency" {
		label = "osu_latency"
	}
	return []Finding{{Kind: KindFabric, Severity: sev, Series: Series{}, Sizes: []int64{at},
		Summary: fmt.Sprintf("%s latency of %s points to %s", label, us(lat), class),
		Numbers: []string{fmt.Sprintf("%s at %s, np %d, %s", us(lat), Size(at), from.NP, dashed(loc))},
		Cause:   cause}}
}

// collectiveModel: collectives against what the same run's PingPong
// predicts for common algorithms (t = α + size·β per message).
func collectiveModel(ss []*series) []Finding {
	var pp *series
	for _, s := range ss {
		if s.Benchmark == "PingPong" || s.Benchmark == "latency" {
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
		p := float64(s.NP)
		lg := math.Ceil(math.Log2(p))
		model := func(n float64) float64 {
			switch strings.ToLower(s.Benchmark) {
			case "barrier", "ibarrier":
				return lg * alpha
			case "bcast", "reduce", "allreduce":
				return math.Min(lg*(alpha+n*beta), 2*lg*alpha+2*(p-1)/p*n*beta)
			case "allgather", "allgatherv":
				return math.Min(lg*alpha+(p-1)*n*beta, (p-1)*(alpha+n*beta))
			case "reduce_scatter", "reduce_scatter_block":
				return math.Min(lg*alpha+(p-1)/p*n*beta, (p-1)*(alpha+n/p*beta))
			case "alltoall", "alltoallv":
				return math.Min((p-1)*(alpha+n*beta), lg*(alpha+p/2*n*beta))
			case "gather", "gatherv", "scatter", "scatterv":
				return lg*alpha + (p-1)*n*beta
			}
			return math.NaN()
		}
		var hit []int64
		var worst, worstModel float64
		var worstAt int64
		for _, r := range s.rows {
			m := model(float64(r.bytes))
			t := math.Max(r.tmax, r.tavg)
			if math.IsNaN(m) || !(t > 0) || (r.bytes == 0 && !strings.Contains(strings.ToLower(s.Benchmark), "barrier")) {
				continue
			}
			if t > 3*m && t-m > 2 {
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
			Summary: fmt.Sprintf("%s is more than 3× slower than its point-to-point model at %s", name(s.Series), sizes(hit)),
			Numbers: []string{
				fmt.Sprintf("worst at %s: %s measured (t_max), %s modelled (%.1f×)", Size(worstAt), us(worst), us(worstModel), worst/worstModel),
				fmt.Sprintf("model from this run's %s: α = %s per message, %s; the better of the usual algorithms (binomial tree, ring, recursive doubling)", pp.Benchmark, us(alpha), mbps(bw))},
			Cause: "the MPI picks a poor algorithm for this size and process count, or the collective meets contention the point-to-point test does not (ranks sharing a NIC, oversubscribed cores); try the library's alternatives (Open MPI --mca coll_tuned_use_dynamic_rules 1 with coll_tuned_<op>_algorithm, I_MPI_ADJUST_<OP>, MPIR_CVAR_<OP>_INTRA_ALGORITHM)"})
	}
	return out
}

// stragglers: in symmetric benchmarks, one rank slowest far more often
// than chance.
func stragglers(r *result.Bundle) []Finding {
	slowest := map[int]int{}
	n, ranks := 0, 0
	for _, x := range r.Results {
		if x.Status != result.StatusOK || rootedBenches[x.Benchmark] || len(x.Ranks) < 3 && x.Suite != "ring" || len(x.Ranks) < 2 {
			continue
		}
		i := 0
		for k, v := range x.RankMeanUS {
			if v > x.RankMeanUS[i] {
				i = k
			}
		}
		slowest[x.Ranks[i]]++
		n++
		ranks = max(ranks, len(x.Ranks))
	}
	if n < 5 {
		return nil
	}
	best, count := -1, 0
	for rk, c := range slowest {
		if c > count || c == count && rk < best {
			best, count = rk, c
		}
	}
	p := 1 / float64(ranks)
	if float64(count) < 0.5*float64(n) || binomTail(n, count, p) > 0.001 {
		return nil
	}
	host := ""
	for _, rk := range r.Run.Ranks {
		if rk.Rank == best {
			host = " on " + rk.Host
		}
	}
	return []Finding{{Kind: KindStraggler, Severity: Warning,
		Summary: fmt.Sprintf("rank %d%s is the slowest rank in %d of %d measurements", best, host, count, n),
		Numbers: []string{fmt.Sprintf("chance would make any one of %d ranks slowest about %.1f times", ranks, float64(n)*p)},
		Cause:   "one rank or host holds the others back: a busy or throttled core, a NIC or link in worse shape, a host with other load; look at that host first"}}
}

// binomTail is P(X >= k) for X ~ Binomial(n, p).
func binomTail(n, k int, p float64) float64 {
	s := 0.0
	for i := k; i <= n; i++ {
		s += math.Exp(lchoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return s
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
