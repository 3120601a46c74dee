// Package host reads what gomb records of the machine a rank runs on: the
// process's CPU binding, the CPU model and kernel, the rated network
// links and the interfaces' byte counters, from the kernel's /proc and
// /sys. Package result holds the types; this package fills them, so that
// result stays a schema and its codec.
package host

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/gomb-hpc/gomb/result"
)

// LocalRank describes the calling process for its run record: host, PID, CPU binding, CPU
// model and kernel.
func LocalRank(rank int, host string) result.Rank {
	r := result.Rank{Rank: rank, Host: host, PID: os.Getpid(), CPUModel: cpuModel(), CPUs: cpuAffinity()}
	var u unix.Utsname
	if err := unix.Uname(&u); err == nil {
		r.Kernel = unix.ByteSliceToString(u.Release[:])
		r.KernelVersion = unix.ByteSliceToString(u.Version[:])
		r.Machine = unix.ByteSliceToString(u.Machine[:])
	}
	r.Links = Links("/sys")
	return r
}

// Links reads the rated network links under a sysfs root: interfaces
// whose speed the kernel knows on a device of their own (not lo, and not
// virtual ones: a veth or bridge reports 10000 Mb/s whatever carries it)
// and InfiniBand ports ("100 Gb/sec (4X EDR)").
func Links(sys string) []result.Link {
	var out []result.Link
	read := readSysfs
	nets, _ := filepath.Glob(filepath.Join(sys, "class", "net", "*"))
	for _, dir := range nets {
		mbps, err := strconv.ParseFloat(read(filepath.Join(dir, "speed")), 64)
		if err != nil || mbps <= 0 || filepath.Base(dir) == "lo" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "device")); err != nil {
			continue // virtual: no hardware behind the rate
		}
		out = append(out, result.Link{Name: filepath.Base(dir), Kind: "net", State: read(filepath.Join(dir, "operstate")), Gbps: mbps / 1000})
	}
	ports, _ := filepath.Glob(filepath.Join(sys, "class", "infiniband", "*", "ports", "*"))
	for _, dir := range ports {
		f := strings.Fields(read(filepath.Join(dir, "rate")))
		if len(f) == 0 {
			continue
		}
		gbps, err := strconv.ParseFloat(f[0], 64)
		if err != nil || gbps <= 0 {
			continue
		}
		state := read(filepath.Join(dir, "state")) // "4: ACTIVE"
		if _, s, ok := strings.Cut(state, ":"); ok {
			state = strings.ToLower(strings.TrimSpace(s))
		}
		name := filepath.Base(filepath.Dir(filepath.Dir(dir))) + "/" + filepath.Base(dir)
		out = append(out, result.Link{Name: name, Kind: "infiniband", State: state, Gbps: gbps})
	}
	return out
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name", "Model", "cpu model", "uarch":
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// NICCounters reads every interface's byte counters under a sysfs
// root: /sys/class/net/*/statistics/{tx,rx}_bytes and, for InfiniBand,
// /sys/class/infiniband/*/ports/*/counters/port_{xmit,rcv}_data (in units
// of 4 bytes). Sorted by name.
func NICCounters(sys string) []result.NICCounter {
	num := func(p string) (uint64, bool) {
		v, err := strconv.ParseUint(readSysfs(p), 10, 64)
		return v, err == nil
	}
	var out []result.NICCounter
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
		out = append(out, result.NICCounter{Name: filepath.Base(dir), Kind: kind, Tx: tx, Rx: rx})
	}
	ports, _ := filepath.Glob(filepath.Join(sys, "class", "infiniband", "*", "ports", "*"))
	for _, dir := range ports {
		tx, ok1 := num(filepath.Join(dir, "counters", "port_xmit_data"))
		rx, ok2 := num(filepath.Join(dir, "counters", "port_rcv_data"))
		if !ok1 || !ok2 {
			continue
		}
		dev := filepath.Base(filepath.Dir(filepath.Dir(dir)))
		out = append(out, result.NICCounter{Name: dev + "/" + filepath.Base(dir), Kind: "infiniband", Tx: 4 * tx, Rx: 4 * rx})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// readSysfs is a sysfs attribute's value, trimmed; "" when unreadable.
func readSysfs(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
