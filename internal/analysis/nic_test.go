package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

func TestNICTraffic(t *testing.T) {
	res := func(loc string, nic ...result.NICTraffic) *result.Result {
		return &result.Result{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 1 << 20, Repetitions: 100,
			Status: result.StatusOK, Locality: loc, NIC: nic}
	}
	tr := func(host, name, kind string, n int64) result.NICTraffic {
		return result.NICTraffic{Host: host, Name: name, Kind: kind, TxBytes: n, RxBytes: n}
	}
	// fleetBW: a fleet pair's bandwidth row on one host, 20 windows of 64
	// messages of 1 MiB at 10 GB/s
	fleetBW := func(nic ...result.NICTraffic) *result.Result {
		return &result.Result{Suite: "fleet", Benchmark: "pair_bw", NP: 2, Bytes: 1 << 20, Repetitions: 20, TAvgUS: 6711, MBps: 10000,
			Status: result.StatusOK, Locality: result.IntraNode, NIC: nic}
	}
	run := &result.Run{Env: map[string]string{"UCX_TLS": "tcp,self"}}
	cases := []struct {
		name     string
		results  []*result.Result
		severity string
		want     string // "" for no finding
	}{
		{"inter-node over eth0", []*result.Result{res(result.InterNode, tr("h1", "eth0", "net", 105<<20), tr("h2", "eth0", "net", 105<<20), tr("h1", "lo", "loopback", 5))},
			Info, "PingPong's inter-node traffic went over eth0 (UCX_TLS tcp,self)"},
		{"two rails", []*result.Result{res(result.InterNode, tr("h1", "ib0", "net", 50<<20), tr("h1", "ib1", "net", 55<<20))},
			Info, "2 interfaces carried PingPong's inter-node traffic: ib1, ib0"},
		{"a stray interface is not a rail", []*result.Result{res(result.InterNode, tr("h1", "eth0", "net", 100<<20), tr("h1", "eth1", "net", 1<<20))},
			Info, "went over eth0"},
		{"inter-node, counted nowhere", []*result.Result{res(result.InterNode, tr("h1", "lo", "loopback", 100))},
			Warning, "crossed hosts, yet no interface counted its bytes"},
		{"one host, shared memory", []*result.Result{res(result.IntraNode)}, "", ""},
		{"one host, loopback TCP", []*result.Result{res(result.IntraNode, tr("h1", "lo", "loopback", 210<<20))},
			Info, "talk through the loopback interface (TCP)"},
		{"one host, through the NIC", []*result.Result{res(result.IntraNode, tr("h1", "eth0", "net", 210<<20))},
			Warning, "share a host, yet their bytes went out through eth0"},
		// a fleet pair on one host, shared memory: both ranks read the
		// host's lo (the launcher's own traffic, 40 MiB), against 1.3 GB
		// its windows moved (64 messages of 1 MiB a window, 20 windows)
		{"one host, a window's bytes, lo of others", []*result.Result{fleetBW(tr("h1", "lo", "loopback", 20<<20), tr("h1", "lo", "loopback", 20<<20))}, "", ""},
		{"one host, a window's bytes over lo", []*result.Result{fleetBW(tr("h1", "lo", "loopback", 1400<<20), tr("h1", "lo", "loopback", 1400<<20))},
			Info, "talk through the loopback interface (TCP)"},
		{"one host, a window's bytes, eth0 of others", []*result.Result{fleetBW(tr("h1", "eth0", "net", 200<<20))}, "", ""},
		{"no -nic", []*result.Result{{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 8, Status: result.StatusOK, Locality: result.InterNode}}, "", ""},
	}
	for _, c := range cases {
		fs := nicTraffic(&explainInput{run: &result.Bundle{Run: run, Results: c.results}})
		if c.want == "" {
			if len(fs) != 0 {
				t.Errorf("%s: %+v, want nothing", c.name, fs)
			}
			continue
		}
		if len(fs) != 1 || fs[0].Severity != c.severity || !strings.Contains(fs[0].Summary, c.want) || fs[0].Kind != KindNIC {
			t.Errorf("%s: %+v, want one %s finding with %q", c.name, fs, c.severity, c.want)
		}
	}
	for _, c := range []struct {
		run  result.Run
		want string
	}{
		{result.Run{MPI: result.MPI{Library: "MPICH Version:\t4.0.2\nMPICH Device:\tch4:ucx\nMPICH configure: x"}}, " (MPICH ch4:ucx)"},
		// MPI_T's reading (Debian's mca-params.conf) and the environment, said once
		{result.Run{MPI: result.MPI{Vars: map[string]string{"pml": "^ucx", "btl": "self,vader,tcp"}},
			Env: map[string]string{"OMPI_MCA_btl": "self,vader,tcp", "OMPI_MCA_btl_tcp_if_include": "eth0"}},
			" (Open MPI pml ^ucx, Open MPI btl self,vader,tcp, Open MPI btl_tcp_if_include eth0)"},
		{result.Run{Env: map[string]string{"MPIR_CVAR_CH4_NETMOD": "ofi", "FI_PROVIDER": "tcp"}}, " (MPICH netmod ofi, libfabric tcp)"},
		{result.Run{}, ""},
	} {
		if got := transportOf(&c.run); got != c.want {
			t.Errorf("transport %q, want %q", got, c.want)
		}
	}
}
