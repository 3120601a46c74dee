package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/result"
)

// TestTestbedNIC: with -nic, a PingPong between two emulated hosts is
// attributed to their eth0 (veth) with at least the payload each way and
// nothing worth counting on loopback; a pair on one host moves nothing
// over eth0 (Open MPI: shared memory; MPICH over UCX's TCP: the loopback);
// gomb explain names the interface.
func TestTestbedNIC(t *testing.T) {
	b := testbed.Start(t, 2, "gtbn-")
	h1, h2 := b.Host(1), b.Host(2)
	for _, m := range bedMPIs {
		for _, c := range []struct {
			name, hosts string
			loc         string
		}{{"across hosts", h1 + "," + h2, result.InterNode}, {"one host", h1 + ":2", result.IntraNode}} {
			t.Run(m.run+"/"+c.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				j := bedJob(t, b, m.run, m.lib, c.hosts, 2, 3*time.Minute, "imb", "-nic", "-msglog", "16:18", "-time", "30",
					"-watchdog", "20", "-json", out, "PingPong")
				s := readRecords(t, out)
				if j.code != 0 && !finalizeHang(j, s, m.run) {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				for _, r := range s.results {
					if r.Bytes == 0 || r.Status != result.StatusOK {
						continue
					}
					if r.Locality != c.loc {
						t.Fatalf("%d B: locality %s, want %s", r.Bytes, r.Locality, c.loc)
					}
					payload := r.Bytes * int64(r.Repetitions) // each way
					eth, lo := map[string]result.NICTraffic{}, int64(0)
					for _, x := range r.NIC {
						switch x.Name {
						case "eth0":
							eth[x.Host] = x
						case "lo":
							lo += x.TxBytes + x.RxBytes
						}
					}
					if c.loc == result.InterNode {
						for _, h := range []string{h1, h2} {
							x, ok := eth[h]
							if !ok || x.TxBytes < payload || x.RxBytes < payload || x.TxBytes > 2*payload || x.RxBytes > 2*payload {
								t.Errorf("%d B: %s eth0 %+v, want tx and rx between %d and twice that (NIC %+v)", r.Bytes, h, x, payload, r.NIC)
							}
						}
						if lo > payload/100 {
							t.Errorf("%d B: loopback carried %d bytes of an inter-host pair's %d", r.Bytes, lo, payload)
						}
					} else if x := eth[h1]; x.TxBytes+x.RxBytes > 64<<10 {
						t.Errorf("%d B: a pair on one host moved %+v over eth0", r.Bytes, x)
					}
				}
				so, se, code := gombCmd(t, nil, "", "explain", out)
				if code != 0 {
					t.Fatalf("explain: exit %d\n%s", code, se)
				}
				if c.loc == result.InterNode && !strings.Contains(so, "inter-node traffic went over eth0") {
					t.Errorf("explain does not name eth0:\n%s", so)
				}
				if c.loc == result.IntraNode && strings.Contains(so, "went out through eth0") {
					t.Errorf("explain blames eth0 for a pair on one host:\n%s", so)
				}
			})
		}
	}
}
