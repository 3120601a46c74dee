package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// fanAsOSU is what gomb prints for OSU 7.4's fan output: its layout line
// after the title, and the bandwidth column named for what it holds (OSU
// 7.4 heads it "Avg Latency(us)").
func fanAsOSU(osuText, layout string) string {
	osuText = strings.Replace(osuText, "# Size       Avg Latency(us)", "# Size      Bandwidth (MB/s)", 1)
	title := "# OSU MPI Bandwidth Test v7.4\n"
	return strings.Replace(osuText, title, title+layout+"\n", 1)
}

// TestTestbedOSUFan: osu_bw_fan_in and osu_bw_fan_out on emulated hosts,
// both MPIs: OSU 7.4's layout (its own output on the same testbed, values
// masked), the ranks that time (the children in fan-in, the parents in
// fan-out), every size measured between nodes; the layouts OSU refuses
// (one host, unequal ranks per host) refused with one line. And
// osu_latency across two hosts is inter-node, though rank 0 alone times.
func TestTestbedOSUFan(t *testing.T) {
	b := testbed.Start(t, 3, "gtbn-")
	h1, h2, h3 := b.Host(1), b.Host(2), b.Host(3)
	cases := []struct {
		name, test, hosts string
		np                int
		timing            []int // the ranks that time
		layout            string
		fixture           string // OSU 7.4's output for the same command, or none
	}{
		{"in/2 hosts", "bw_fan_in", h1 + "," + h2, 2, []int{1},
			"# [ fan-in ] [ nodes: 2 ] [ processes per node: 1 ] [ window size: 64 ]", "osu_bw_fan_in_np2_m4096.txt"},
		{"out/2 hosts x 2", "bw_fan_out", h1 + ":2," + h2 + ":2", 4, []int{0, 1},
			"# [ fan-out ] [ nodes: 2 ] [ processes per node: 2 ] [ window size: 64 ]", "osu_bw_fan_out_np4_m4096.txt"},
		{"in/2 hosts x 2", "bw_fan_in", h1 + ":2," + h2 + ":2", 4, []int{2, 3},
			"# [ fan-in ] [ nodes: 2 ] [ processes per node: 2 ] [ window size: 64 ]", ""},
		{"in/3 hosts", "bw_fan_in", h1 + "," + h2 + "," + h3, 3, []int{1, 2},
			"# [ fan-in ] [ nodes: 3 ] [ processes per node: 1 ] [ window size: 64 ]", ""},
		{"out/3 hosts", "bw_fan_out", h1 + "," + h2 + "," + h3, 3, []int{0},
			"# [ fan-out ] [ nodes: 3 ] [ processes per node: 1 ] [ window size: 64 ]", ""},
	}
	for _, m := range bedMPIs {
		for _, c := range cases {
			t.Run(m.run+"/"+c.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				j := bedJob(t, b, m.run, m.lib, c.hosts, c.np, 3*time.Minute,
					"osu", c.test, "-m", "1:4096", "-i", "5", "-x", "1", "-watchdog", "10", "-json", out)
				s := readRecords(t, out)
				stdout := j.stdout
				if finalizeHang(j, s, m.run) {
					stdout = beforeHydraBanner(stdout)
				} else if j.code != 0 {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				checkNoCrash(t, j)
				if c.fixture != "" {
					ref, err := os.ReadFile(filepath.Join("testdata", "osu", c.fixture))
					if err != nil {
						t.Fatal(err)
					}
					if got, want := maskOSU(stdout), maskOSU(fanAsOSU(string(ref), c.layout)); got != want {
						t.Errorf("layout differs from OSU's %s:\n%s", c.fixture, testutil.Diff(want, got))
					}
				} else if !strings.Contains(stdout, c.layout+"\n") {
					t.Errorf("no line %q in\n%s", c.layout, stdout)
				}
				if len(s.results) != 13 {
					t.Fatalf("%d results, want 13 sizes (1 to 4096 bytes)", len(s.results))
				}
				for _, r := range s.results {
					if r.Benchmark != c.test || r.NP != c.np || r.Status != result.StatusOK || r.MBps <= 0 ||
						!slices.Equal(r.Ranks, c.timing) || r.Locality != result.InterNode || len(r.SamplesUS) != len(c.timing) {
						t.Errorf("%d bytes: %s np %d %s %.2f MB/s ranks %v %s, %d ranks' samples; want %s np %d, ranks %v inter-node",
							r.Bytes, r.Benchmark, r.NP, r.Status, r.MBps, r.Ranks, r.Locality, len(r.SamplesUS), c.test, c.np, c.timing)
					}
				}
			})
		}
		// osu_latency times on rank 0 alone; its messages still cross hosts
		t.Run(m.run+"/latency across hosts", func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := bedJob(t, b, m.run, m.lib, h1+","+h2, 2, 2*time.Minute,
				"osu", "latency", "-m", "1:4", "-i", "20", "-x", "2", "-watchdog", "10", "-json", out)
			s := readRecords(t, out)
			if j.code != 0 && !finalizeHang(j, s, m.run) {
				t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
			}
			if len(s.results) != 3 {
				t.Fatalf("%d results, want 3", len(s.results))
			}
			for _, r := range s.results {
				if r.Locality != result.InterNode || r.HostCount != 2 || !slices.Equal(r.Ranks, []int{0}) {
					t.Errorf("%d bytes: %s on %d hosts, ranks %v; want inter-node on 2, ranks [0]", r.Bytes, r.Locality, r.HostCount, r.Ranks)
				}
			}
		})
		for _, c := range []struct{ name, hosts, want string }{
			{"one host", h1 + ":2", "bw_fan_in: needs ranks on two or more hosts (nodes): all 2 run on " + h1},
			{"unequal", h1 + ":2," + h2, "bw_fan_in: needs as many ranks on every host: " + h1 + " has 2, " + h2 + " has 1"},
		} {
			t.Run(m.run+"/refused/"+c.name, func(t *testing.T) {
				np := strings.Count(c.hosts, ",") + 2
				if c.name == "one host" {
					np = 2
				}
				j := bedJob(t, b, m.run, m.lib, c.hosts, np, 2*time.Minute, "osu", "bw_fan_in", "-m", "1:8", "-watchdog", "10")
				checkNoCrash(t, j)
				// MPICH may then stick in MPI_Finalize (finalizeHang)
				hang := m.run == "mpich" && strings.Contains(j.stderr, "MPI_Finalize in flight")
				if j.code != exitUsage && !hang || strings.Count(j.stderr, c.want) != 1 {
					t.Errorf("exit %d, want %d and once %q:\n%s", j.code, exitUsage, c.want, tail(j.stderr))
				}
			})
		}
	}
}
