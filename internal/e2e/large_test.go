package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// largeArgs give the sizes of the large-count tests: 1 GiB, whose buffers
// pass INT_MAX bytes in Exchange (two messages) and Allgather (np
// blocks), and 2 GiB, past it everywhere; -mem 5 lets 4 GiB a rank
// through and stops the 6 GiB of Exchange and Allgather at 2 GiB.
var largeArgs = []string{"-msgsize", "1g,2g", "-msglog", "31", "-mem", "5", "-time", "600", "-iter_policy", "off",
	"-iter", "1", "-zero_size", "off"}

// hugePages asks glibc's malloc for transparent huge pages on the
// buffers (madvise, glibc 2.35 on): on this VM the first touch of 4 KiB
// pages, not the transfer, cost 43 of the 45 s of PingPong at 1 and 2 GiB
// (4.6 s with them). The layout the ranks get is malloc's either way.
var hugePages = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"

// largeRow is what a size of the large-count tests must give.
type largeRow struct {
	bench  string
	bytes  int64
	status string
	large  bool
}

// memAvailable is /proc/meminfo's MemAvailable in bytes (0: unknown).
func memAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if n, _ := fmt.Sscanf(sc.Text(), "MemAvailable: %d kB", &kb); n == 1 {
			return kb << 10
		}
	}
	return 0
}

// TestLargeCount: messages past INT_MAX elements. With MPICH 4 (MPI 4.0)
// PingPong, Exchange, Allgather and Bcast run them through the large-count
// calls, and -check finds every byte where it belongs (and finds the byte
// a fault corrupts); with Open MPI 4.1 (MPI 3.1) the first such size is
// IMB's int-overflow row, its reason line naming the limit and the
// library, and the benchmark's table ends there as in IMB 2021.
func TestLargeCount(t *testing.T) {
	// two ranks of up to 4 GiB of buffers each, and the page cache's share
	if avail := memAvailable(); avail < 12<<30 {
		t.Skipf("%.1f GiB of memory available; the 2 GiB messages need 12", float64(avail)/(1<<30))
	}
	benches := []string{"PingPong", "Exchange", "Allgather", "Bcast"}
	want := map[string][]largeRow{
		"mpich": {
			{"PingPong", 1 << 30, result.StatusOK, false}, {"PingPong", 2 << 30, result.StatusOK, true},
			{"Exchange", 1 << 30, result.StatusOK, true}, {"Exchange", 2 << 30, result.StatusOutOfMem, false},
			{"Allgather", 1 << 30, result.StatusOK, true}, {"Allgather", 2 << 30, result.StatusOutOfMem, false},
			{"Bcast", 1 << 30, result.StatusOK, false}, {"Bcast", 2 << 30, result.StatusOK, true},
		},
		"openmpi": {
			{"PingPong", 1 << 30, result.StatusOK, false}, {"PingPong", 2 << 30, result.StatusIntOverflow, false},
			{"Exchange", 1 << 30, result.StatusIntOverflow, false},
			{"Allgather", 1 << 30, result.StatusIntOverflow, false},
			{"Bcast", 1 << 30, result.StatusOK, false}, {"Bcast", 2 << 30, result.StatusIntOverflow, false},
		},
	}
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			args := append(append([]string{"-check", "-json", out}, largeArgs...), benches...)
			j := launch(t, m, 2, 5*time.Minute, []string{hugePages}, args...)
			checkNoCrash(t, j)
			if j.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", j.code, tail(j.stdout), tail(j.stderr))
			}
			s := readRecords(t, out)
			if len(s.results) != len(want[m.name]) {
				t.Fatalf("%d results, want %d:\n%s", len(s.results), len(want[m.name]), j.stdout)
			}
			for i, w := range want[m.name] {
				r := s.results[i]
				if r.Benchmark != w.bench || r.Bytes != w.bytes || r.Status != w.status || r.LargeCount != w.large {
					t.Errorf("result %d: %s %d B %s large %v; want %+v", i, r.Benchmark, r.Bytes, r.Status, r.LargeCount, w)
				}
				if r.Status == result.StatusOK && (r.Check == nil || !r.Check.Passed || r.Repetitions != 1 || !(r.TAvgUS > 0)) {
					t.Errorf("%s %d B: check %+v, %d repetitions, %g us", r.Benchmark, r.Bytes, r.Check, r.Repetitions, r.TAvgUS)
				}
				if r.Status == result.StatusIntOverflow &&
					(!strings.Contains(r.Reason, "past MPI's int counts (2147483647)") || !strings.Contains(r.Reason, "Open MPI v") ||
						!strings.Contains(r.Reason, "(MPI 3.1) has no MPI-4 large-count calls")) {
					t.Errorf("%s %d B: reason %q", r.Benchmark, r.Bytes, r.Reason)
				}
				if r.Status == result.StatusIntOverflow && !strings.Contains(j.stdout, "# int-overflow: "+r.Reason+"\n") {
					t.Errorf("%s %d B: the table does not give the reason", r.Benchmark, r.Bytes)
				}
			}
			if n := strings.Count(j.stdout, "MPI-4's large-count calls (MPI_Send_c and the like)"); m.name == "mpich" && n != 4 {
				t.Errorf("%d tables announce large-count rows, want 4:\n%s", n, j.stdout)
			}
		})
	}
	// The checks look at the data: a byte flipped on arrival is found.
	if mpis[1].name != "mpich" {
		t.Fatalf("mpis[1] is %s", mpis[1].name)
	}
	t.Run("mpich/corrupt", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "r.jsonl")
		args := []string{"-check", "-json", out, "-msgsize", "2g", "-msglog", "31", "-mem", "5", "-time", "600",
			"-iter_policy", "off", "-iter", "1", "PingPong"}
		j := launch(t, mpis[1], 2, 5*time.Minute, []string{"GOMB_FAULT=check-corrupt", hugePages}, args...)
		checkNoCrash(t, j)
		if j.code != exitCheckFailed {
			t.Fatalf("exit %d, want %d\n%s", j.code, exitCheckFailed, tail(j.stderr))
		}
		s := readRecords(t, out)
		if len(s.results) != 1 || !s.results[0].LargeCount || s.results[0].Check == nil || s.results[0].Check.Passed ||
			s.results[0].Check.Defects < 1 {
			t.Errorf("results %+v", s.results)
		}
	})
}
