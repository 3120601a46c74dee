package result

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
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
	before := ReadNICCounters(sys)
	want := []NICCounter{{"eth0", "net", 1000, 2000}, {"lo", "loopback", 5, 5}, {"mlx5_0/1", "infiniband", 40, 80}}
	if !reflect.DeepEqual(before, want) {
		t.Fatalf("counters %+v, want %+v", before, want)
	}
	// eth0 moved 500 out and 700 in, lo nothing, the IB port wrapped.
	set([2]string{"1500", "2700"}, [2]string{"5", "5"}, [2]string{"3", "30"})
	got := NICDelta("h1", before, ReadNICCounters(sys))
	wantD := []NICTraffic{{"h1", "eth0", "net", 500, 700}, {"h1", "mlx5_0/1", "infiniband", 0, 40}}
	if !reflect.DeepEqual(got, wantD) {
		t.Errorf("delta %+v, want %+v", got, wantD)
	}
	if ReadNICCounters(filepath.Join(sys, "none")) != nil {
		t.Error("counters from a missing sysfs")
	}
}
