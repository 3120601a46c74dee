package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// Fabric is a published small-message latency (and bandwidth) of one
// interconnect, with the conditions it was measured under and where it
// was published: what explain holds a run's latency against ("is 15 µs
// good for this interconnect?").
type Fabric struct {
	Name       string  `json:"name"`
	Class      string  `json:"class"`      // ClassShm, ClassRDMA, ClassEFA, ClassTCP
	LatencyUS  float64 `json:"latency_us"` // small-message one-way latency; 0: not published
	MBps       float64 `json:"mbps"`       // bandwidth one way, MB/s; 0: not published
	Conditions string  `json:"conditions"`
	Source     string  `json:"source"`
}

// Fabric classes.
const (
	ClassShm  = "shared memory"
	ClassRDMA = "RDMA"
	ClassEFA  = "EFA (SRD)"
	ClassTCP  = "TCP"
)

// Fabrics are the published figures gomb ships (from the project's
// collection of public issue threads, vendor documentation, the seed logs
// and the field corpus' published logs, each with its source); not found
// yet: NDR latency, Omni-Path, TCP over 10/25/100 GbE on bare metal.
var Fabrics = []Fabric{
	{"shared memory, x86 (Open MPI sm2)", ClassShm, 0.22, 0, "AWS hpc6a, Open MPI, OMB 7.0, 0 B", "ofiwg/libfabric PR #8680"},
	{"shared memory, x86 (Open MPI shm)", ClassShm, 0.35, 0, "AWS hpc6a, Open MPI, OMB 7.0, 0 B", "ofiwg/libfabric PR #8582"},
	{"shared memory, gomb's test VM (Open MPI vader)", ClassShm, 0.44, 20000, "2-core EPYC VM, IMB-MPI1 2021.11 PingPong, 0 B; 1 MiB", "measured by gomb's developers"},
	{"shared memory, gomb's test VM (MPICH)", ClassShm, 0.68, 0, "2-core EPYC VM, IMB-MPI1 2021.11 PingPong, 0 B", "measured by gomb's developers"},
	{"shared memory, Xeon E5 (Open MPI vader)", ClassShm, 0.16, 0, "OSU 5.8 osu_latency 0 B, one node", "MoritzPerschke/uibk_hpc_24 proseminar/01/task02/latency/cores.log"},
	{"shared memory, ARM Juno board (Open MPI 1.6 sm)", ClassShm, 3.09, 0, "IMB-MPI1 4.1 PingPong 0 B, Cortex-A53/A72", "gbrandino/juno_board_testing data/IMB-MPI1_intranode.txt"},
	{"InfiniBand HDR100 (Open MPI 4.0 + UCX)", ClassRDMA, 0.84, 0, "IMB-MPI1 2019.5 PingPong 0 B, 2 nodes, UCX_NET_DEVICES=mlx5_0:1", "stackhpc/mpi-container-test ompi4-NA-ib-ping.sh.out"},
	{"InfiniBand EDR (MVAPICH2 2.2)", ClassRDMA, 1.07, 0, "OSU 5.3.2 osu_latency, 2 nodes", "hpc-cofc/generic-benchmarks network/infiniband/osu-mpi-benchmarks"},
	{"InfiniBand EDR (HPE MPT, NREL Eagle)", ClassRDMA, 1.19, 0, "IMB-MPI1 PingPong, 2 nodes", "NREL/ESIFHPC3 IMB/testrun1/rawdat"},
	{"InfiniBand HDR (Azure HBv3, HPC-X)", ClassRDMA, 1.58, 0, "OSU 5.8 osu_latency, node pairs", "converged-computing/performance-study experiments/azure/cyclecloud"},
	{"InfiniBand QDR (Open MPI 3.1)", ClassRDMA, 1.64, 3300, "OSU 5.8 osu_latency, 2 nodes", "MoritzPerschke/uibk_hpc_24 proseminar/01/task02/latency/nodes.log"},
	{"RoCE 50 GbE (Intel MPI 2019 + UCX)", ClassRDMA, 1.48, 0, "IMB-MPI1 2019.6 PingPong, 2 nodes, CSD3", "stackhpc/hpc-tests output/csd3/cclake-roce-icc19-impi19-ucx"},
	{"RoCE 25 GbE (Intel MPI 2019, verbs)", ClassRDMA, 2.33, 0, "IMB-MPI1 2019.5 PingPong, 2 nodes", "stackhpc/hpc-tests output/alaska/roce-gcc9-impi-verbs"},
	{"Cray Aries (MVAPICH 2.2 in a container)", ClassRDMA, 1.09, 0, "osu_latency, Piz Daint XC50, 2 nodes", "eth-cscs/sarus doc/cookbook/osu_mb/osu_mb.rst"},
	{"InfiniBand (Intel MPI, mlx provider)", ClassRDMA, 1.52, 1975, "IMB-MPI1 2021.10 PingPong, 2 nodes; 4 MiB", "IMB fabric comparison blog (gomb seed)"},
	{"InfiniBand FDR (ConnectX-3)", ClassRDMA, 1.59, 0, "MVAPICH2, IMB PingPong", "openhpc/ohpc issue #207"},
	{"HPE Crossroads (Slingshot)", ClassRDMA, 1.61, 22650, "osu_latency 8 B, 1 rank per node; osu_bibw 45307 MB/s at 1 MB, halved", "OSU results on Crossroads (gomb seed)"},
	{"InfiniHost (MPICH-VMI, 2005)", ClassRDMA, 1.74, 1700, "PCI-X, eager to rendezvous at 16 KiB", "VMI latency data (gomb seed)"},
	{"HPE Slingshot-11, GPU to GPU", ClassRDMA, 2.7, 23000, "1-64 B; bibw 45-46.5 GB/s halved; cray-mpich 8.1.32, OMB 7.5", "EESSI blog 2025/09, 2026/05"},
	{"InfiniBand HDR (ConnectX-6, 200 Gb/s)", ClassRDMA, 0, 21300, "osu_bw, MPICH 3.3.2 + UCX 1.15, PCIe 4 x16", "openucx/ucx #9212, #8851"},
	{"iWARP Ethernet NIC (OFI)", ClassRDMA, 4, 0, "OFI/cm", "open-mpi/ompi #7861"},
	{"Fujitsu Tofu interconnect D (Fugaku, A64FX)", ClassRDMA, 0.49, 6800, "one-way 8-byte put latency through the NIC (uTofu, below MPI); 6.8 GB/s a link (38.1 GB/s injection a node)", "Ajima et al., The Tofu Interconnect D, IEEE Cluster 2018, doi:10.1109/CLUSTER.2018.00090"},
	{"AWS EFA", ClassEFA, 9.87, 5800, "hpc6a, Intel MPI 2021.6, OMB 7.5, 1 B; 4 MiB in 725.6 µs", "aws-parallelcluster #6449"},
	{"AWS EFA (Open MPI, hpc6a on EKS)", ClassEFA, 15.5, 0, "OSU 5.8 osu_latency, 2 nodes, FI_PROVIDER=efa", "converged-computing/performance-study experiments/aws/eks/cpu"},
	{"AWS EFA (p3dn, host buffers)", ClassEFA, 22.3, 0, "OSU osu_latency -d cuda H H, nodes across datacenters", "converged-computing/performance-study experiments/aws/eks/gpu"},
	{"TCP, Google c2d (gVNIC, TIER_1)", ClassTCP, 31.7, 0, "OSU 5.8 osu_latency, 2 VMs, Open MPI", "converged-computing/performance-study experiments/google/compute-engine"},
	{"TCP over 1 GbE, ARM Juno boards", ClassTCP, 152, 100, "IMB-MPI1 4.1 PingPong, Open MPI 1.6.5", "gbrandino/juno_board_testing data/IMB-MPI1_internode.txt"},
	{"Gigabit Ethernet (MPICH-VMI, 2005)", ClassTCP, 12.5, 244, "bcm5700", "VMI latency data (gomb seed)"},
	{"iWARP NIC over the TCP path", ClassTCP, 16, 0, "ob1/ucx", "open-mpi/ompi #7861"},
	{"TCP over 1 GbE (Intel MPI, tcp provider)", ClassTCP, 105, 117, "IMB-MPI1 PingPong, 2 nodes; 4 MiB", "IMB fabric comparison blog (gomb seed)"},
}

// published lists the reference latencies of a class nearest to lat, as
// one line for a finding.
func published(class string, lat float64) string {
	var fs []Fabric
	for _, f := range Fabrics {
		if f.Class == class && f.LatencyUS > 0 {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return ""
	}
	sort.SliceStable(fs, func(i, j int) bool { return dist(fs[i].LatencyUS, lat) < dist(fs[j].LatencyUS, lat) })
	var parts []string
	for _, f := range fs[:min(3, len(fs))] {
		parts = append(parts, fmt.Sprintf("%s %s (%s; %s)", f.Name, us(f.LatencyUS), f.Conditions, f.Source))
	}
	return "published: " + strings.Join(parts, "; ")
}

func dist(a, b float64) float64 {
	if a > b {
		return a / b
	}
	return b / a
}

// gpuBuffers reports whether the run's messages lived in GPU memory (osu
// -d cuda, ring --gpu), as its stored options say, or, for an imported OSU
// log, its buffer line ("# Send Buffer on DEVICE (D) and Receive Buffer
// on DEVICE (D)"), or OSU 7's device title without one. Device-to-device latency runs a few µs above host
// latency on the same fabric (Slingshot GPU to GPU: 2.6-2.8 µs against
// 1.6 µs host, Fabrics).
func gpuBuffers(run *result.Run) bool {
	var o struct {
		GPU     bool `json:"gpu"`
		Options struct {
			Device string `json:"device"`
		} `json:"options"`
	}
	if run.DecodeOptions(&o) && (o.GPU || o.Options.Device != "") {
		return true
	}
	if run.Source == nil {
		return false
	}
	placed := false // the log says where its buffers were
	for _, v := range run.Source.Meta {
		if strings.Contains(v, "Buffer on DEVICE") || strings.Contains(v, "Buffer on MANAGED") {
			return true
		}
		placed = placed || strings.Contains(v, "Buffer on HOST")
	}
	// OSU 7 prints no buffer line, only the device build's title when the
	// run used device buffers ("OSU MPI-CUDA Latency Test v7.5" for
	// osu_latency D D, "OSU MPI Latency Test v7.5" without)
	t := run.Source.Meta["title"]
	return !placed && (strings.Contains(t, "MPI-CUDA") || strings.Contains(t, "MPI-ROCM") || strings.Contains(t, "MPI-OPENACC"))
}
