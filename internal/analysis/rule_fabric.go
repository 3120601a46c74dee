package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// smallLatency is the run's small-message latency: the least time of its
// reference ping-pong up to 8 bytes, the series and the size it is at (nil
// without one). With messages in GPU memory, from 1 byte: an empty
// message never touches the device (OSU -d cuda D D: 1.7 µs at 0 B, 17 µs
// from 1 B on a field log).
func smallLatency(ss []*series, gpu bool) (lat float64, from *series, at int64) {
	least := int64(0)
	if gpu {
		least = 1
	}
	for _, s := range ss {
		if !s.traits().Reference {
			continue
		}
		for _, r := range s.rows {
			if r.bytes >= least && r.bytes <= 8 && r.primary > 0 && (from == nil || r.primary < lat) {
				lat, from, at = r.primary, s, r.bytes
			}
		}
	}
	return lat, from, at
}

// latencyClass is a class of interconnect and the small-message latencies
// it gives between two ranks (µs), from the published figures (Fabrics)
// and the field's logs: the ranges overlap, and a latency in the overlap
// fits each of them.
type latencyClass struct {
	class, name string
	lo, hi      float64
}

// latencyClasses are the classes by the thresholds in force; with
// messages in GPU memory every upper bound is FabricGPU higher.
func latencyClasses(th Thresholds, gpu bool) []latencyClass {
	up := 0.0
	if gpu {
		up = th.FabricGPU
	}
	return []latencyClass{
		{ClassShm, "shared memory (one node)", 0, th.FabricRDMA + up},
		{ClassRDMA, "InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI)", th.FabricNetMin, th.FabricRDMA + up},
		{ClassEFA, "AWS EFA (SRD)", th.FabricSlow, th.FabricEFA + up},
		{ClassTCP, "kernel TCP/IP (Ethernet, or a fabric's TCP provider)", th.FabricSlow, th.FabricFar + up},
	}
}

// fabric: what the small-message latency says of the interconnect, read
// against the run's evidence. The evidence speaks first (where the ranks
// ran, the transport the run names); the latency then names every class
// it fits. A WARNING only where latency and evidence cannot both be
// true: ranks on two nodes faster than any network, ranks on one node as
// slow as a network, or a path slower than any fabric.
func fabric(in *explainInput) []Finding {
	th, ev := in.th, in.ev
	gpu := gpuBuffers(in.run.Run)
	lat, from, at := smallLatency(in.series, gpu)
	if from == nil {
		return bandwidthClass(in)
	}
	staged := ""
	if lat0, _, at0 := smallLatency(in.series, false); gpu && at0 == 0 && lat0 > 0 && lat >= th.GPUStagingRatio*lat0 && lat-lat0 >= th.GPUStagingMinUS {
		// data messages are staged through the host (gpuStaging): the
		// empty message's time is the fabric's
		staged = fmt.Sprintf("%s at %s between GPU buffers is the staging's (see the gpu finding); the empty message, which touches no GPU memory, gives the fabric's", us(lat), Size(at))
		lat, at, gpu = lat0, 0, false
	} else if h := hostPeer(in, from); gpu && h != nil {
		// the log's host-buffer run of the same test gives the fabric's
		if hl, hf, ha := smallLatency([]*series{h}, false); hf != nil && lat >= th.GPUStagingRatio*hl && lat-hl >= th.GPUStagingMinUS {
			staged = fmt.Sprintf("%s at %s between GPU buffers is the staging's (see the gpu finding); the log's host-buffer run of the test gives the fabric's", us(lat), Size(at))
			lat, at, gpu = hl, ha, false
		}
	}
	var fits []latencyClass
	for _, c := range latencyClasses(th, gpu) {
		if c.class == ClassRDMA && ev.provider == "tofu" {
			c.name = providerClass["tofu"].name
		}
		switch {
		case lat < c.lo || lat > c.hi:
		case c.class == ClassShm && ev.loc != "" && ev.loc != result.IntraNode:
		case c.class != ClassShm && ev.loc == result.IntraNode:
		default:
			fits = append(fits, c)
		}
	}
	f := Finding{Kind: KindFabric, Severity: Info, Series: Series{}, Sizes: []int64{at}}
	f.Numbers = []string{fmt.Sprintf("%s at %s, np %d", us(lat), Size(at), from.NP)}
	if gpu {
		f.Numbers[0] += fmt.Sprintf("; GPU buffers: the classes' upper bounds raised by %g µs", th.FabricGPU)
	}
	if staged != "" {
		f.Numbers = append(f.Numbers, staged)
	}
	where := ""
	switch {
	case ev.locFrom == "":
		f.Numbers = append(f.Numbers, "where the ranks ran: the run does not say (gomb import -locality, or a launch line in the log, tells it)")
	case ev.loc == result.IntraNode:
		where = "on one node"
	case ev.loc == result.InterNode:
		where = "on different nodes"
	default:
		where = "partly on one node, partly not"
	}
	if where != "" {
		f.Numbers = append(f.Numbers, fmt.Sprintf("where the ranks ran: %s, from %s", where, ev.locFrom))
	}
	var names []string
	for _, c := range fits {
		names = append(names, c.name)
		if p := published(c.class, lat); p != "" {
			f.Numbers = append(f.Numbers, fmt.Sprintf("%s, %s: %s", c.name, span(c.lo, c.hi), p))
		}
	}
	label := from.traits().Label
	switch {
	case lat >= th.FabricFar:
		f.Severity = Warning
		f.Summary = fmt.Sprintf("%s latency of %s is slower than any fabric", label, us(lat))
		f.Cause = fmt.Sprintf("above %g µs no interconnect answers, not even kernel TCP over Gigabit Ethernet: a long or congested path between the hosts (a WAN link, a shaper, packet loss and retransmits), a virtualised NIC, or ranks waiting for a CPU; measure the path (ping, iperf) and the load on both hosts", th.FabricFar)
	case ev.loc == result.InterNode && lat < th.FabricNetMin:
		f.Severity = Warning
		f.Summary = fmt.Sprintf("%s latency of %s between ranks %s is faster than any network", label, us(lat), where)
		f.Cause = fmt.Sprintf("below %g µs no published network answers (the fastest, InfiniBand EDR/HDR, takes 0.8-1 µs; Fujitsu's Tofu-D puts in 0.49 µs, where the run names it); the two ranks must share a node: check the host list and the rank placement", th.FabricNetMin)
	case ev.loc == result.IntraNode && len(fits) == 0:
		f.Severity = Warning
		f.Summary = fmt.Sprintf("%s latency of %s %s is network-like", label, us(lat), where)
		f.Cause = "the ranks share a node, yet latency is what a network gives: the MPI may be sending through a network transport (btl tcp, a NIC loopback) instead of shared memory, or the cores are oversubscribed"
	case len(fits) == 0:
		f.Summary = fmt.Sprintf("%s latency of %s fits no class's published range", label, us(lat))
		f.Cause = fmt.Sprintf("%g-%g µs is slow for RDMA and fast for kernel TCP: a slow RDMA path (extra switch hops, a software fallback, a virtualised NIC) or a user-space Ethernet stack", th.FabricRDMA, th.FabricSlow)
	case ev.loc == result.IntraNode && lat >= th.FabricShm:
		f.Summary = fmt.Sprintf("%s latency of %s %s: slow shared memory", label, us(lat), where)
		f.Cause = "shared memory usually answers within a microsecond on x86: ranks on different sockets, unbound or oversubscribed cores, a busy machine, or a small core (ARM boards take up to ~3 µs)"
	default:
		f.Summary = fmt.Sprintf("%s latency of %s fits %s", label, us(lat), strings.Join(names, " or "))
		if len(fits) > 1 {
			f.Cause = "latency alone cannot tell these apart; the ranks' placement (a launch line, gomb import -locality) and the transport the MPI used (FI_PROVIDER, UCX_TLS, I_MPI_FABRICS, the MPI's debug output) can"
		} else {
			f.Cause = "the published figures of this class are in this range"
		}
	}
	if where != "" && f.Severity == Info {
		f.Summary += fmt.Sprintf("; the ranks are %s (%s)", where, ev.locFrom)
	}
	if p, ok := providerClass[ev.provider]; ok {
		fitsIt := false
		for _, c := range fits {
			fitsIt = fitsIt || c.class == p.class
		}
		line := fmt.Sprintf("the transport the run names: %s, from %s", p.name, ev.providerFrom)
		if fitsIt {
			f.Numbers = append(f.Numbers, line+"; the latency fits it")
			if f.Severity == Info && len(fits) > 1 {
				f.Cause = fmt.Sprintf("the run names its transport, %s, and the latency is in that class's range", p.name)
			}
		} else {
			f.Numbers = append(f.Numbers, line+"; the latency is outside that class's published range")
			if f.Severity == Info {
				f.Cause += fmt.Sprintf("; the run names %s, whose published latency this is not: check what carried the messages (the MPI's debug output: I_MPI_DEBUG=5, UCX_LOG_LEVEL=info, FI_LOG_LEVEL=info)", p.name)
			}
		}
	}
	return []Finding{f}
}

// span writes a class's range of latency.
func span(lo, hi float64) string {
	if lo == 0 {
		return "up to " + us(hi)
	}
	return us(lo) + " to " + us(hi)
}

// wireRates are the links a bandwidth is held against, Gb/s, with what
// runs at that rate.
var wireRates = []struct {
	gbps float64
	what string
}{
	{1, "Gigabit Ethernet"}, {10, "10 GbE"}, {25, "25 GbE"}, {40, "40 GbE or InfiniBand QDR"}, {56, "50 GbE or InfiniBand FDR"},
	{100, "100 Gb/s: InfiniBand EDR or HDR100, 100 GbE, Omni-Path, AWS EFA"}, {200, "200 Gb/s: InfiniBand HDR, Slingshot-11, 200 GbE"},
	{400, "400 Gb/s: InfiniBand NDR, 400 GbE"},
}

// bandwidthClass is a bandwidth-only run's reading of its fabric (no
// ping-pong in the run or its log): a pair's peak bandwidth one way bounds
// the link from below — the slowest link that carries it, or shared
// memory — with the published figures nearest it. It cannot tell a slow
// fabric from a slow path: INFO.
func bandwidthClass(in *explainInput) []Finding {
	if ref, _ := peerReference(in); ref != nil {
		return nil // the log's latency test reads the fabric
	}
	var best *series
	peak := 0.0
	for _, s := range in.series {
		t := s.traits()
		if s.metric != BW || t.Directions < 1 || t.Pairs || s.NP > 2 || in.run.Run.WorldSize > 2 && in.ev.loc != result.InterNode {
			continue // (two ranks of a larger job most likely share a node)
		}
		for _, r := range s.rows {
			if v := r.primary / float64(t.Directions); v > peak {
				peak, best = v, s
			}
		}
	}
	if best == nil {
		return nil
	}
	gbps := peak * 8 / 1000
	f := Finding{Kind: KindFabric, Severity: Info, Series: Series{},
		Numbers: []string{fmt.Sprintf("%s at its best, %s one way (%.1f Gb/s); np %d", best.traits().Label, mbps(peak), gbps, best.NP)}}
	link := "a link faster than any listed (400 Gb/s)"
	for _, w := range wireRates {
		if gbps <= w.gbps {
			link = fmt.Sprintf("a link of %g Gb/s or faster (%s and up)", w.gbps, w.what)
			break
		}
	}
	var near []Fabric
	for _, x := range Fabrics {
		if x.MBps > 0 {
			near = append(near, x)
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return dist(near[i].MBps, peak) < dist(near[j].MBps, peak) })
	var pub []string
	for _, x := range near[:min(3, len(near))] {
		pub = append(pub, fmt.Sprintf("%s %s (%s; %s)", x.Name, mbps(x.MBps), x.Conditions, x.Source))
	}
	f.Numbers = append(f.Numbers, "published bandwidths nearest it: "+strings.Join(pub, "; "))
	switch {
	case in.ev.loc == result.IntraNode:
		f.Summary = fmt.Sprintf("%s peak bandwidth %s one way, on one node; the run holds no latency test to read its transport by", best.traits().Label, mbps(peak))
	default:
		f.Summary = fmt.Sprintf("%s peak bandwidth %s one way: between nodes, %s; the run holds no latency test to read the fabric by", best.traits().Label, mbps(peak), link)
	}
	if in.ev.locFrom != "" {
		f.Numbers = append(f.Numbers, "where the ranks ran: "+in.ev.loc+", from "+in.ev.locFrom)
	}
	if p, ok := providerClass[in.ev.provider]; ok {
		f.Numbers = append(f.Numbers, fmt.Sprintf("the transport the run names: %s, from %s", p.name, in.ev.providerFrom))
	}
	f.Cause = "a bandwidth bounds the link from below only: any fabric can move less than its rate (a slow path, small windows, one core), none more, and ranks on one node move it through memory instead; a latency test in the same job (osu_latency, IMB PingPong) would name the class"
	return []Finding{f}
}
