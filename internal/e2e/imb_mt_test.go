package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// mtEnv is the environment of an IMB-MT job of threads threads a rank:
// under Open MPI, its UCX PML (shared-memory transports) rather than ob1
// and vader, which now and then free a thread's communicator or lose a
// message under MPI_THREAD_MULTIPLE (3 jobs of 120 with a core busy;
// docs/imb-mt.md).
func mtEnv(m mpiLib, threads int) []string {
	env := []string{fmt.Sprintf("OMP_NUM_THREADS=%d", threads)}
	if m.name == "openmpi" && threads > 1 {
		env = append(env, "OMPI_MCA_pml=ucx", "OMPI_MCA_pml_ucx_tls=any", "OMPI_MCA_pml_ucx_devices=any")
	}
	return env
}

// TestMTLayout compares gomb imb-mt's text with IMB-MT 2021.11's own of
// the same command line (IMB-MT prints no calling sequence; the cases
// give it), numbers masked.
func TestMTLayout(t *testing.T) {
	cases := []struct {
		file    string
		np, omp int
		args    string
		libs    []string
	}{
		{"imb_mt_np2_count.txt", 2, 1, "-count 1,8 -repeat 20 -warmup 2", []string{"openmpi", "mpich"}},
		{"imb_mt_np2_threads2.txt", 2, 2, "-thread_level multiple -count 1,4 -repeat 10 -warmup 1 -barrier special -check on " +
			"PingPongMT SendRecvMT ExchangeMT UniBandMT BarrierMT AllReduceMT", []string{"openmpi", "mpich"}},
		// 3 ranks: PingPongMT and BiBandMT pair two of them, the third has no result
		{"imb_mt_np3_noheader.txt", 3, 1, "-count 2 -repeat 10 -warmup 1 -noheader -datatype char PingPongMT SendRecvMT BiBandMT BcastMT",
			[]string{"openmpi"}},
	}
	for _, c := range cases {
		ref, err := os.ReadFile(filepath.Join("testdata", "imb", c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mpis {
			if !contains(c.libs, m.name) {
				continue
			}
			t.Run(m.name+"/"+c.file, func(t *testing.T) {
				j := launchCmd(t, m, c.np, 3*time.Minute, mtEnv(m, c.omp), "imb-mt",
					strings.Fields(c.args)...)
				if j.code != 0 {
					t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
				}
				if got, want := maskIMB(j.stdout), maskIMB(string(ref)); got != want {
					t.Errorf("layout differs from IMB-MT's %s:\n%s", c.file, testutil.Diff(want, got))
				}
			})
		}
	}
}

// TestMTConformance runs all of IMB-MT's benchmarks with 2 threads a rank
// under MPI_THREAD_MULTIPLE, both MPIs, 2 and 4 ranks, with -check on, and
// checks every record.
func TestMTConformance(t *testing.T) {
	const repeat, threads = 5, 2
	for _, m := range mpis {
		for _, np := range testutil.ShortRanks(2, 4) {
			t.Run(fmt.Sprintf("%s/np%d", m.name, np), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				j := launchCmd(t, m, np, 5*time.Minute, mtEnv(m, threads), "imb-mt",
					"-thread_level", "multiple", "-count", "1,4", "-repeat", fmt.Sprint(repeat), "-warmup", "1",
					"-window_size", "4", "-check", "on", "-json", out)
				checkNoCrash(t, j)
				if j.code != 0 {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || s.run == nil || s.run.Suite != mt.Suite || s.end == nil || s.end.Status != result.EndComplete {
					t.Fatalf("records: bad %v, run %+v, end %+v", s.bad, s.run, s.end)
				}
				i := 0
				o := mt.DefaultOptions()
				o.Counts = []int{1, 4}
				for _, sp := range mt.Specs() {
					for _, count := range o.CountsOf(sp) {
						if i >= len(s.results) {
							t.Fatalf("records end before %s count %d", sp.Name, count)
						}
						checkMTRow(t, s.results[i], sp, np, threads, count, repeat)
						i++
					}
					if !strings.Contains(j.stdout, "# Benchmarking "+sp.Name+"\n# #processes = "+fmt.Sprint(np)+" (threads: 2)\n") {
						t.Errorf("%s: no table for %d processes of 2 threads", sp.Name, np)
					}
				}
				if i != len(s.results) {
					t.Errorf("%d records, want %d", len(s.results), i)
				}
			})
		}
	}
}

func checkMTRow(t *testing.T, r *result.Result, sp *mt.Spec, np, threads, count, repeat int) {
	t.Helper()
	where := fmt.Sprintf("%s np=%d count %d", sp.Name, np, count)
	bytes := int64(count * 4 * threads)
	if r.Benchmark != sp.Name || r.NP != np || r.Bytes != bytes || r.Repetitions != repeat || r.Status != result.StatusOK {
		t.Fatalf("%s: record %s np=%d %d B reps %d status %s", where, r.Benchmark, r.NP, r.Bytes, r.Repetitions, r.Status)
	}
	if len(r.Ranks) != np || len(r.SamplesUS) != np {
		t.Errorf("%s: %d ranks, %d sample sets", where, len(r.Ranks), len(r.SamplesUS))
	}
	for k, ss := range r.SamplesUS {
		// every repetition of each of the rank's threads
		if len(ss) != threads*repeat {
			t.Errorf("%s: rank %d has %d samples, want %d", where, k, len(ss), threads*repeat)
		}
		sum := 0.0
		for _, x := range ss {
			sum += x
		}
		if math.Abs(sum/float64(len(ss))-r.RankMeanUS[k]) > 1e-3*max(1, r.RankMeanUS[k]) {
			t.Errorf("%s: rank %d samples average %g, mean %g", where, k, sum/float64(len(ss)), r.RankMeanUS[k])
		}
	}
	if sp.Format != mt.Band && !(r.TMinUS <= r.TAvgUS+1e-9 && r.TAvgUS <= r.TMaxUS+1e-9 && r.TMinUS > 0) {
		t.Errorf("%s: t_min %g t_avg %g t_max %g", where, r.TMinUS, r.TAvgUS, r.TMaxUS)
	}
	if (sp.Format == mt.PointToPoint || sp.Format == mt.Band) && r.MBps <= 0 {
		t.Errorf("%s: %g MB/s", where, r.MBps)
	}
	if r.Check == nil || !r.Check.Passed {
		t.Errorf("%s: check %+v", where, r.Check)
	}
}
