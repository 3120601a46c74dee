package host

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

func TestNICCounters(t *testing.T) {
	sys := t.TempDir()
	put := func(p, v string) {
		p = filepath.Join(sys, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := func(eth, lo, ib [2]string) {
		put("class/net/eth0/statistics/tx_bytes", eth[0])
		put("class/net/eth0/statistics/rx_bytes", eth[1])
		put("class/net/eth0/type", "1")
		put("class/net/lo/statistics/tx_bytes", lo[0])
		put("class/net/lo/statistics/rx_bytes", lo[1])
		put("class/net/lo/type", "772")
		put("class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", ib[0])
		put("class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", ib[1])
	}
	put("class/net/broken/statistics/tx_bytes", "x") // unreadable: left out
	set([2]string{"1000", "2000"}, [2]string{"5", "5"}, [2]string{"10", "20"})
	before := NICCounters(sys)
	want := []result.NICCounter{
		{Name: "eth0", Kind: "net", Tx: 1000, Rx: 2000},
		{Name: "lo", Kind: "loopback", Tx: 5, Rx: 5},
		{Name: "mlx5_0/1", Kind: "infiniband", Tx: 40, Rx: 80},
	}
	if !reflect.DeepEqual(before, want) {
		t.Fatalf("counters %+v, want %+v", before, want)
	}
	// eth0 moved 500 out and 700 in, lo nothing, the IB port wrapped.
	set([2]string{"1500", "2700"}, [2]string{"5", "5"}, [2]string{"3", "30"})
	got := result.NICDelta("h1", before, NICCounters(sys))
	wantD := []result.NICTraffic{
		{Host: "h1", Name: "eth0", Kind: "net", TxBytes: 500, RxBytes: 700},
		{Host: "h1", Name: "mlx5_0/1", Kind: "infiniband", TxBytes: 0, RxBytes: 40},
	}
	if !reflect.DeepEqual(got, wantD) {
		t.Errorf("delta %+v, want %+v", got, wantD)
	}
	if NICCounters(filepath.Join(sys, "none")) != nil {
		t.Error("counters from a missing sysfs")
	}
}

func TestLocalRank(t *testing.T) {
	r := LocalRank(3, "h")
	if r.Rank != 3 || r.Host != "h" || r.PID != os.Getpid() || r.CPUs == "" || r.Kernel == "" {
		t.Errorf("LocalRank = %+v", r)
	}
}

// TestLinks reads a made-up sysfs: an Ethernet link, lo and a link
// without a rate are left out, an InfiniBand port is read with its state.
func TestLinks(t *testing.T) {
	sys := t.TempDir()
	write := func(p, s string) {
		p = filepath.Join(sys, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s+"\n"), 0o644)
	}
	write("class/net/eth0/speed", "25000")
	write("class/net/eth0/operstate", "up")
	write("class/net/eth0/device/vendor", "0x15b3")
	write("class/net/veth2/speed", "10000") // virtual: no device
	write("class/net/veth2/operstate", "up")
	write("class/net/lo/speed", "10")
	write("class/net/veth1/speed", "-1")
	write("class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)")
	write("class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE")
	got := fmt.Sprint(Links(sys))
	if want := "[{eth0 net up 25} {mlx5_0/1 infiniband active 100}]"; got != want {
		t.Errorf("links %s, want %s", got, want)
	}
}
