package result

import (
	"path/filepath"
	"sort"
	"strconv"
)

// NICTraffic is what one interface of a host carried while a size's timed
// loop ran (imb -nic): the growth of its byte counters.
type NICTraffic struct {
	Host string `json:"host"`
	Name string `json:"name"` // "eth0", "lo", "mlx5_0/1" (an InfiniBand port)
	// Kind is "net" (a network interface), "loopback" (lo: traffic that
	// never left the host) or "infiniband" (a port's own counters; its
	// IPoIB interface, if any, is a "net" beside it).
	Kind    string `json:"kind"`
	TxBytes int64  `json:"tx_bytes"`
	RxBytes int64  `json:"rx_bytes"`
}

// NICCounter is one interface's byte counters at one moment.
type NICCounter struct {
	Name, Kind string
	Tx, Rx     uint64
}

// ReadNICCounters reads every interface's byte counters under a sysfs
// root: /sys/class/net/*/statistics/{tx,rx}_bytes and, for InfiniBand,
// /sys/class/infiniband/*/ports/*/counters/port_{xmit,rcv}_data (in units
// of 4 bytes). Sorted by name.
func ReadNICCounters(sys string) []NICCounter {
	num := func(p string) (uint64, bool) {
		v, err := strconv.ParseUint(readSysfs(p), 10, 64)
		return v, err == nil
	}
	var out []NICCounter
	nets, _ := filepath.Glob(filepath.Join(sys, "class", "net", "*"))
	for _, dir := range nets {
		tx, ok1 := num(filepath.Join(dir, "statistics", "tx_bytes"))
		rx, ok2 := num(filepath.Join(dir, "statistics", "rx_bytes"))
		if !ok1 || !ok2 {
			continue
		}
		kind := "net"
		if t, ok := num(filepath.Join(dir, "type")); ok && t == 772 { // ARPHRD_LOOPBACK
			kind = "loopback"
		}
		out = append(out, NICCounter{Name: filepath.Base(dir), Kind: kind, Tx: tx, Rx: rx})
	}
	ports, _ := filepath.Glob(filepath.Join(sys, "class", "infiniband", "*", "ports", "*"))
	for _, dir := range ports {
		tx, ok1 := num(filepath.Join(dir, "counters", "port_xmit_data"))
		rx, ok2 := num(filepath.Join(dir, "counters", "port_rcv_data"))
		if !ok1 || !ok2 {
			continue
		}
		dev := filepath.Base(filepath.Dir(filepath.Dir(dir)))
		out = append(out, NICCounter{Name: dev + "/" + filepath.Base(dir), Kind: "infiniband", Tx: 4 * tx, Rx: 4 * rx})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NICDelta is what each interface carried between two readings of one
// host: the interfaces whose counters grew, in name order. A counter that
// went down (the interface was reset, a 32-bit counter wrapped) counts 0.
func NICDelta(host string, before, after []NICCounter) []NICTraffic {
	was := map[string]NICCounter{}
	for _, c := range before {
		was[c.Name] = c
	}
	var out []NICTraffic
	for _, a := range after {
		b, ok := was[a.Name]
		if !ok {
			continue
		}
		d := NICTraffic{Host: host, Name: a.Name, Kind: a.Kind}
		if a.Tx > b.Tx {
			d.TxBytes = int64(a.Tx - b.Tx)
		}
		if a.Rx > b.Rx {
			d.RxBytes = int64(a.Rx - b.Rx)
		}
		if d.TxBytes > 0 || d.RxBytes > 0 {
			out = append(out, d)
		}
	}
	return out
}
