package result

import ()

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
