package analysis

import (
	"fmt"

	"github.com/gomb-hpc/gomb/result"
)

// smallLatency is the run's small-message latency: the least time of its
// reference ping-pong up to 8 bytes, the series and the size it is at (nil
// without one).
func smallLatency(ss []*series) (lat float64, from *series, at int64) {
	for _, s := range ss {
		if !s.traits().Reference {
			continue
		}
		for _, r := range s.rows {
			if r.bytes <= 8 && r.primary > 0 && (from == nil || r.primary < lat) {
				lat, from, at = r.primary, s, r.bytes
			}
		}
	}
	return lat, from, at
}

// fabric: the class of interconnect the small-message latency implies,
// held against the published figures of that class (Fabrics); a run that
// names its provider (EFA) is classed by it first.
func fabric(in *explainInput) []Finding {
	loc, th := in.loc, in.th
	lat, from, at := smallLatency(in.series)
	if from == nil {
		return nil
	}
	var class, cause, ref string
	sev := Info
	efa := provider(in.run.Run) == ClassEFA
	if gpuBuffers(in.run.Run) {
		// device buffers: the classes' bounds move up by FabricGPU
		th.FabricShm, th.FabricRDMA, th.FabricSlow = th.FabricShm+th.FabricGPU, th.FabricRDMA+th.FabricGPU, th.FabricSlow+th.FabricGPU
	}
	switch {
	case efa && lat >= th.FabricShm && lat < th.FabricEFA:
		class, ref = "AWS EFA (SRD, RDMA class)", ClassEFA
		cause = fmt.Sprintf("the run used EFA (FI_PROVIDER=efa or efa devices), whose SRD transport answers in about 10 µs: healthy, though %g µs and more would mean TCP on other fabrics", th.FabricSlow)
	case lat < th.FabricShm:
		class, ref = "shared memory", ClassShm
		cause = "below a microsecond no network is involved: the two ranks share a node"
		if loc == result.InterNode {
			sev, cause = Warning, "the run says inter-node, yet sub-microsecond latency means the two ranks share a node: check the host list and the rank placement"
		}
	case lat < th.FabricRDMA:
		class, ref = "RDMA class (InfiniBand, RoCE, Omni-Path, Slingshot)", ClassRDMA
		cause = fmt.Sprintf("%g-%g µs is what kernel-bypass RDMA fabrics give between nodes", th.FabricShm, th.FabricRDMA)
	case lat < th.FabricSlow:
		class, ref = "a slow RDMA path or a user-space Ethernet stack", ClassRDMA
		cause = fmt.Sprintf("%g-%g µs is slow for RDMA (an extra switch hop, a software fallback) and fast for TCP", th.FabricRDMA, th.FabricSlow)
	case lat >= th.FabricFar:
		class, ref, sev = "a path slower than any fabric", ClassTCP, Warning
		cause = fmt.Sprintf("above %g µs no interconnect answers, not even kernel TCP over Gigabit Ethernet: a long or congested path between the hosts (a WAN link, a shaper, packet loss and retransmits), a virtualised NIC, or ranks waiting for a CPU; measure the path (ping, iperf) and the load on both hosts", th.FabricFar)
	default:
		class, ref = "Ethernet/TCP class (kernel sockets)", ClassTCP
		cause = fmt.Sprintf("%g µs and more is the kernel TCP/IP path;", th.FabricSlow) + " on a machine with an RDMA fabric this means the MPI is not using it (check the transport: UCX_TLS, FI_PROVIDER, --mca btl/pml, I_MPI_FABRICS)"
	}
	switch {
	case loc == result.IntraNode && lat >= th.FabricRDMA:
		sev, cause = Warning, "the ranks share a node, yet latency is network-like: the MPI may be sending through a network transport (btl tcp, a NIC loopback) instead of shared memory, or the cores are oversubscribed"
	case loc == result.IntraNode && lat >= th.FabricShm:
		class, ref = "slow shared memory", ClassShm
		cause = "the ranks share a node, but shared memory usually answers within a microsecond: ranks on different sockets, unbound or oversubscribed cores, or a busy machine"
	}
	label := from.traits().Label
	numbers := []string{fmt.Sprintf("%s at %s, np %d, %s", us(lat), Size(at), from.NP, dashed(loc))}
	if gpuBuffers(in.run.Run) {
		numbers[0] += fmt.Sprintf("; GPU buffers: the classes' bounds raised by %g µs", th.FabricGPU)
	}
	if p := published(ref, lat); p != "" {
		numbers = append(numbers, p)
	}
	return []Finding{{Kind: KindFabric, Severity: sev, Series: Series{}, Sizes: []int64{at},
		Summary: fmt.Sprintf("%s latency of %s points to %s", label, us(lat), class),
		Numbers: numbers, Cause: cause}}
}
