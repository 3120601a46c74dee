package host

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// Facts reads a node's hardware under a sysfs root ("/sys"): sockets,
// physical cores and hardware threads of the online CPUs, the network
// devices that are up and the accelerators on the PCI bus. host names
// the node.
//
// A network device counts once: an InfiniBand port that is ACTIVE (RoCE
// and EFA devices are InfiniBand devices to the kernel), a Slingshot cxi
// device whose link is up, and an Ethernet interface that is up and is
// neither a port of another device (an IPoIB or hsn interface of a
// device counted already), nor enslaved (a bridge's or bond's port), nor
// virtual, except a veth that stands alone: a container's or an emulated
// host's link.
func Facts(sys, host string) result.Node {
	n := result.Node{Type: result.TypeNode, Schema: result.Schema, Host: host, NICs: []result.NIC{}, GPUs: []result.GPU{}}
	n.Sockets, n.Cores, n.Threads = cpuTopology(sys)
	n.NICs = nics(sys)
	n.GPUs = gpus(sys)
	return n
}

// NodeName is this node's name as the allocation names it: Slurm's
// SLURMD_NODENAME under srun, else the host name.
func NodeName() string {
	if n := os.Getenv("SLURMD_NODENAME"); n != "" {
		return n
	}
	h, _ := os.Hostname()
	return h
}

// cpuTopology counts the online CPUs' packages, (package, core) pairs and
// the CPUs themselves.
func cpuTopology(sys string) (sockets, cores, threads int) {
	base := filepath.Join(sys, "devices", "system", "cpu")
	cpus, ok := result.ParseCPUList(readSysfs(filepath.Join(base, "online")))
	if !ok || len(cpus) == 0 {
		dirs, _ := filepath.Glob(filepath.Join(base, "cpu[0-9]*"))
		for _, d := range dirs {
			if i, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "cpu")); err == nil {
				cpus = append(cpus, i)
			}
		}
	}
	pkgs, pairs := map[string]bool{}, map[string]bool{}
	for _, c := range cpus {
		topo := filepath.Join(base, "cpu"+strconv.Itoa(c), "topology")
		pkg, core := readSysfs(filepath.Join(topo, "physical_package_id")), readSysfs(filepath.Join(topo, "core_id"))
		if core == "" { // no topology: a CPU is a core
			core = "cpu" + strconv.Itoa(c)
		}
		pkgs[pkg] = true
		pairs[pkg+"/"+core] = true
	}
	return len(pkgs), len(pairs), len(cpus)
}

// nics lists the network devices that are up (Facts says which).
func nics(sys string) []result.NIC {
	out := []result.NIC{}
	claimed := map[string]bool{} // PCI devices an InfiniBand or cxi device owns
	numa := func(dev string) int {
		v, err := strconv.Atoi(readSysfs(filepath.Join(dev, "numa_node")))
		if err != nil {
			return -1
		}
		return v
	}
	ibs, _ := filepath.Glob(filepath.Join(sys, "class", "infiniband", "*"))
	for _, d := range ibs {
		dev := realDevice(d)
		if dev != "" {
			claimed[dev] = true
		}
		ports, _ := filepath.Glob(filepath.Join(d, "ports", "*"))
		for _, p := range ports {
			state := strings.ToUpper(readSysfs(filepath.Join(p, "state"))) // "4: ACTIVE"
			if !strings.Contains(state, "ACTIVE") {
				continue
			}
			x := result.NIC{Name: filepath.Base(d) + "/" + filepath.Base(p), Kind: result.NICInfiniBand, NUMA: -1}
			if f := strings.Fields(readSysfs(filepath.Join(p, "rate"))); len(f) > 0 {
				x.Gbps, _ = strconv.ParseFloat(f[0], 64)
			}
			if dev != "" {
				x.NUMA = numa(dev)
			}
			out = append(out, x)
		}
	}
	cxis, _ := filepath.Glob(filepath.Join(sys, "class", "cxi", "cxi*"))
	for _, d := range cxis {
		dev := realDevice(d)
		if dev != "" {
			claimed[dev] = true
		}
		// the cxi driver's link state, where it has one; a device without
		// one counts (its hsn interface says no more)
		if s := strings.ToLower(readSysfs(filepath.Join(d, "device", "port", "link"))); s != "" && !strings.Contains(s, "up") {
			continue
		}
		x := result.NIC{Name: filepath.Base(d), Kind: result.NICCxi, NUMA: -1}
		if dev != "" {
			x.NUMA = numa(dev)
		}
		out = append(out, x)
	}
	nets, _ := filepath.Glob(filepath.Join(sys, "class", "net", "*"))
	for _, d := range nets {
		name := filepath.Base(d)
		if name == "lo" || readSysfs(filepath.Join(d, "operstate")) != "up" {
			continue
		}
		if exists(filepath.Join(d, "master")) || exists(filepath.Join(d, "bridge")) || exists(filepath.Join(d, "bonding")) {
			continue // a bridge's or bond's port, or a bridge or bond itself
		}
		dev := realDevice(d)
		if dev != "" && claimed[dev] {
			continue // IPoIB, hsn: the device is counted
		}
		if dev == "" && !isVeth(d) {
			continue // virtual: a tunnel, a dummy, a VLAN
		}
		if t := readSysfs(filepath.Join(d, "type")); t != "" && t != "1" { // ARPHRD_ETHER
			continue
		}
		x := result.NIC{Name: name, Kind: result.NICEthernet, NUMA: -1}
		if mbps, err := strconv.ParseFloat(readSysfs(filepath.Join(d, "speed")), 64); err == nil && mbps > 0 {
			x.Gbps = mbps / 1000
		}
		if dev != "" {
			x.NUMA = numa(dev)
		}
		out = append(out, x)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// isVeth: a virtual interface with a peer (its iflink another interface's
// index) and no lower device (a VLAN's or macvlan's lower_* link): a veth.
func isVeth(dir string) bool {
	idx, link := readSysfs(filepath.Join(dir, "ifindex")), readSysfs(filepath.Join(dir, "iflink"))
	if idx == "" || link == "" || idx == link {
		return false
	}
	lower, _ := filepath.Glob(filepath.Join(dir, "lower_*"))
	return len(lower) == 0
}

// realDevice is the device a class entry hangs off, resolved ("" for none:
// a virtual interface).
func realDevice(classDir string) string {
	p, err := filepath.EvalSymlinks(filepath.Join(classDir, "device"))
	if err != nil {
		return ""
	}
	return p
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// gpuVendors are the PCI vendors whose 3D and display controllers are
// accelerators (a server's VGA controller, class 0x0300, is not).
var gpuVendors = map[string]string{"0x10de": "nvidia", "0x1002": "amd", "0x8086": "intel"}

// gpus lists the accelerators on the PCI bus: 3D controllers (class
// 0x0302) and display controllers (0x0380) of NVIDIA, AMD and Intel.
func gpus(sys string) []result.GPU {
	out := []result.GPU{}
	devs, _ := filepath.Glob(filepath.Join(sys, "bus", "pci", "devices", "*"))
	for _, d := range devs {
		class := readSysfs(filepath.Join(d, "class"))
		if !strings.HasPrefix(class, "0x0302") && !strings.HasPrefix(class, "0x0380") {
			continue
		}
		vendor, ok := gpuVendors[readSysfs(filepath.Join(d, "vendor"))]
		if !ok {
			continue
		}
		g := result.GPU{PCI: filepath.Base(d), Vendor: vendor, NUMA: -1}
		if v, err := strconv.Atoi(readSysfs(filepath.Join(d, "numa_node"))); err == nil {
			g.NUMA = v
		}
		out = append(out, g)
	}
	return out
}
