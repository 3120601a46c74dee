package result

// TypeNode is the record type of a node's hardware facts (gomb suite
// run gathers them once, one record a node, in its directory's
// nodes.jsonl).
const TypeNode = "node"

// Node is what gomb knows of one node's hardware: what an acceptance
// suite's placements count (docs/suite.md). Cores are physical cores,
// not hardware threads.
type Node struct {
	Type   string `json:"type"`
	Schema string `json:"schema"`
	Host   string `json:"host"`
	// Sockets, Cores and Threads: processor packages, physical cores
	// (distinct package and core ids) and hardware threads, of the CPUs
	// that are online.
	Sockets int `json:"sockets"`
	Cores   int `json:"cores"`
	Threads int `json:"threads"`
	// NICs are the network devices that are up: InfiniBand ports (RoCE and
	// EFA among them), Slingshot cxi devices and Ethernet interfaces, a
	// device once (an InfiniBand port's IPoIB interface, a cxi device's
	// hsn interface are not counted again).
	NICs []NIC `json:"nics"`
	// GPUs are the accelerators on the node's PCI bus.
	GPUs []GPU `json:"gpus"`
}

// NIC is one network device of a node.
type NIC struct {
	Name string `json:"name"` // "mlx5_0/1", "cxi0", "eth0"
	// Kind is "infiniband", "cxi" or "ethernet".
	Kind string  `json:"kind"`
	Gbps float64 `json:"gbps,omitempty"` // its rate, where the kernel says
	// NUMA is the NUMA node the device hangs off (-1: not known).
	NUMA int `json:"numa"`
}

// GPU is one accelerator of a node.
type GPU struct {
	PCI    string `json:"pci"`    // its PCI address, "0000:17:00.0"
	Vendor string `json:"vendor"` // "nvidia", "amd", "intel"
	NUMA   int    `json:"numa"`
}

// Fabric NIC kinds.
const (
	NICInfiniBand = "infiniband"
	NICCxi        = "cxi"
	NICEthernet   = "ethernet"
)

// FabricNICs are the NICs an acceptance suite's per-nic placement counts:
// the InfiniBand and cxi devices where the node has any (its management
// Ethernet is not part of the fabric then), else its Ethernet interfaces.
func (n *Node) FabricNICs() []NIC {
	var fast, eth []NIC
	for _, x := range n.NICs {
		if x.Kind == NICEthernet {
			eth = append(eth, x)
		} else {
			fast = append(fast, x)
		}
	}
	if len(fast) > 0 {
		return fast
	}
	return eth
}
