package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/result"
)

// TestOSUMany: several tests in one job, with both MPIs: each its table
// and records (each test's options kept), what could not run said in the
// closing summary with exit status 6; a test failing validation makes it
// 3; none able to run is a usage error; a suite word runs its tests.
func TestOSUMany(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name+"/some not run", func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launchCmd(t, m, 2, 2*time.Minute, nil, "osu", "latency", "ibcast", "allreduce", "neighbor_allgather", "bw_fan_in",
				"-c", "-m", "1:8", "-i", "10", "-x", "1", "-json", out)
			checkNoCrash(t, j)
			if j.code != exitNotRun {
				t.Fatalf("exit %d, want %d\n%s\n%s", j.code, exitNotRun, j.stdout, tail(j.stderr))
			}
			for _, want := range []string{"# OSU MPI Latency Test", "# OSU MPI Non-blocking Broadcast Latency Test", "# OSU MPI Allreduce Latency Test",
				"# gomb osu: 3 of 5 tests run, 2 not run, 0 failed validation",
				"# not run: neighbor_allgather: -N cart:1:1: 2 processes make a grid of 2",
				"# not run: bw_fan_in: -c: bw_fan_in has no validation"} {
				if strings.Count(j.stdout, want) != 1 {
					t.Errorf("want once %q in:\n%s", want, j.stdout)
				}
			}
			st := readRecords(t, out)
			var opt struct {
				Tests       []string                `json:"tests"`
				TestOptions map[string]*osu.Options `json:"test_options"`
			}
			if len(st.results) != 12 || st.end == nil || st.end.Status != result.EndComplete || !st.run.DecodeOptions(&opt) ||
				strings.Join(opt.Tests, " ") != "latency ibcast allreduce" || len(opt.TestOptions) != 3 {
				t.Fatalf("%d results, end %+v, tests %v, %d test options", len(st.results), st.end, opt.Tests, len(opt.TestOptions))
			}
			for _, r := range st.results {
				if r.Check == nil || !r.Check.Passed {
					t.Errorf("%s %d B: check %+v", r.Benchmark, r.Bytes, r.Check)
				}
			}
		})
		t.Run(m.name+"/all run", func(t *testing.T) {
			j := launchCmd(t, m, 2, 2*time.Minute, nil, "osu", "startup", "latency", "-m", "1:8", "-i", "10", "-x", "1")
			checkNoCrash(t, j)
			if j.code != 0 || !strings.Contains(j.stdout, "# gomb osu: 3 of 3 tests run, 0 not run, 0 failed validation") ||
				!strings.Contains(j.stdout, "nprocs: 2, min: ") || !strings.Contains(j.stdout, "This is a test with 2 processes") {
				t.Errorf("exit %d\n%s\n%s", j.code, j.stdout, tail(j.stderr))
			}
		})
		t.Run(m.name+"/failed", func(t *testing.T) {
			j := launchCmd(t, m, 2, 2*time.Minute, []string{"GOMB_FAULT=check-corrupt"}, "osu", "latency", "allgather", "-c", "-m", "1:4", "-i", "5")
			checkNoCrash(t, j)
			if j.code != exitCheckFailed || !strings.Contains(j.stdout, "# failed: latency: -c: 3 sizes failed validation") ||
				!strings.Contains(j.stdout, "# failed: allgather: -c: 3 sizes failed validation") {
				t.Errorf("exit %d, want %d\n%s\n%s", j.code, exitCheckFailed, j.stdout, tail(j.stderr))
			}
		})
		t.Run(m.name+"/none can run", func(t *testing.T) {
			checkUsageError(t, launchCmd(t, m, 2, time.Minute, nil, "osu", "neighbor_allgather", "bw_fan_out"), "no test can run: neighbor_allgather")
		})
		t.Run(m.name+"/unknown", func(t *testing.T) {
			checkUsageError(t, launchCmd(t, m, 2, time.Minute, nil, "osu", "latency", "latancy"), `unknown test "latancy"`)
		})
	}
}
