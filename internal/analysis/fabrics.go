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
// collection of public issue threads, vendor documentation and the seed
// logs, each with its source); not found yet: EDR, NDR-400 and HDR
// latency, RoCE v2, Omni-Path, TCP over 10/25/100 GbE.
var Fabrics = []Fabric{
	{"shared memory, x86 (Open MPI sm2)", ClassShm, 0.22, 0, "AWS hpc6a, Open MPI, OMB 7.0, 0 B", "ofiwg/libfabric PR #8680"},
	{"shared memory, x86 (Open MPI shm)", ClassShm, 0.35, 0, "AWS hpc6a, Open MPI, OMB 7.0, 0 B", "ofiwg/libfabric PR #8582"},
	{"shared memory, gomb's test VM (Open MPI vader)", ClassShm, 0.44, 20000, "2-core EPYC VM, IMB-MPI1 2021.11 PingPong, 0 B; 1 MiB", "measured by gomb's developers"},
	{"shared memory, gomb's test VM (MPICH)", ClassShm, 0.68, 0, "2-core EPYC VM, IMB-MPI1 2021.11 PingPong, 0 B", "measured by gomb's developers"},
	{"InfiniBand (Intel MPI, mlx provider)", ClassRDMA, 1.52, 1975, "IMB-MPI1 2021.10 PingPong, 2 nodes; 4 MiB", "IMB fabric comparison blog (gomb seed)"},
	{"InfiniBand FDR (ConnectX-3)", ClassRDMA, 1.59, 0, "MVAPICH2, IMB PingPong", "openhpc/ohpc issue #207"},
	{"HPE Crossroads (Slingshot)", ClassRDMA, 1.61, 22650, "osu_latency 8 B, 1 rank per node; osu_bibw 45307 MB/s at 1 MB, halved", "OSU results on Crossroads (gomb seed)"},
	{"InfiniHost (MPICH-VMI, 2005)", ClassRDMA, 1.74, 1700, "PCI-X, eager to rendezvous at 16 KiB", "VMI latency data (gomb seed)"},
	{"HPE Slingshot-11, GPU to GPU", ClassRDMA, 2.7, 23000, "1-64 B; bibw 45-46.5 GB/s halved; cray-mpich 8.1.32, OMB 7.5", "EESSI blog 2025/09, 2026/05"},
	{"InfiniBand HDR (ConnectX-6, 200 Gb/s)", ClassRDMA, 0, 21300, "osu_bw, MPICH 3.3.2 + UCX 1.15, PCIe 4 x16", "openucx/ucx #9212, #8851"},
	{"iWARP Ethernet NIC (OFI)", ClassRDMA, 4, 0, "OFI/cm", "open-mpi/ompi #7861"},
	{"AWS EFA", ClassEFA, 9.87, 5800, "hpc6a, Intel MPI 2021.6, OMB 7.5, 1 B; 4 MiB in 725.6 µs", "aws-parallelcluster #6449"},
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

// provider is the fabric a run says it used, from its environment or its
// hosts' devices, where that decides the class ("" when it does not):
// EFA's SRD answers in ~10 µs, RDMA class, though latency alone would
// read it as TCP.
func provider(run *result.Run) string {
	if run == nil {
		return ""
	}
	if strings.EqualFold(run.Env["FI_PROVIDER"], "efa") {
		return ClassEFA
	}
	for _, r := range run.Ranks {
		for _, l := range r.Links {
			if strings.HasPrefix(l.Name, "efa") && l.State != "down" {
				return ClassEFA
			}
		}
	}
	return ""
}

// gpuBuffers reports whether the run's messages lived in GPU memory (osu
// -d cuda, ring --gpu), as its stored options say, or, for an imported OSU
// log, its buffer line ("# Send Buffer on DEVICE (D) and Receive Buffer
// on DEVICE (D)"). Device-to-device latency runs a few µs above host
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
	if run.Source != nil {
		for _, v := range run.Source.Meta {
			if strings.Contains(v, "Buffer on DEVICE") || strings.Contains(v, "Buffer on MANAGED") {
				return true
			}
		}
	}
	return false
}
