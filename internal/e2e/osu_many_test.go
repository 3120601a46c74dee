package e2e

import (
	"bytes"
	"os"
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
			// a fan test on one host: its reason, and the run record lists
			// only the test that runs
			j = launchCmd(t, m, 2, 2*time.Minute, nil, "osu", "latency", "bw_fan_out", "-m", "1:8", "-i", "10", "-x", "1", "-json", out+"2")
			st = readRecords(t, out+"2")
			if j.code != exitNotRun || !strings.Contains(j.stdout, "# not run: bw_fan_out: needs ranks on two or more hosts (nodes): all 2 run on ") ||
				!st.run.DecodeOptions(&opt) || strings.Join(opt.Tests, " ") != "latency" {
				t.Errorf("a fan test on one host: exit %d, tests %v\n%s", j.code, opt.Tests, j.stdout)
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

// TestOSUGraphs: -G with both MPIs: a terminal plot under the table for
// every size, and a PNG file per size in the working directory, named as
// OSU names them.
func TestOSUGraphs(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			j := launchArgv(t, m, 2, 2*time.Minute, nil, []string{"-wdir", dir}, "osu", "allreduce", "-G", "tty,png", "-m", "4:16", "-i", "30", "-x", "2")
			checkNoCrash(t, j)
			if j.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", j.code, j.stdout, tail(j.stderr))
			}
			for _, size := range []string{"4", "8", "16"} {
				if !strings.Contains(j.stdout, "# Size: "+size+", Avg: ") {
					t.Errorf("no terminal graph of %s bytes:\n%s", size, j.stdout)
				}
				b, err := os.ReadFile(filepath.Join(dir, "osu_allreduce-"+size+".png"))
				if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
					t.Errorf("%s bytes: PNG %d bytes, %v", size, len(b), err)
				}
			}
			if strings.Count(j.stdout, "Lat(us) by Iteration Count (1-30)") != 3 || !strings.Contains(j.stdout, "# -G png: 3 graphs written") {
				t.Errorf("graphs:\n%s", j.stdout)
			}
		})
	}
}

// TestOSUValidationLog: OSU 7.4's -clog:DIR with both MPIs: every wrong
// element of a failing check in each rank's log, in OSU's layout; a clean
// run writes none; a directory that exists is refused.
func TestOSUValidationLog(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			logs := filepath.Join(dir, "vlog")
			j := launchCmd(t, m, 2, time.Minute, []string{"GOMB_FAULT=check-corrupt"}, "osu", "allgather", "-clog:"+logs, "-m", "1:4", "-i", "5")
			checkNoCrash(t, j)
			if j.code != exitCheckFailed {
				t.Fatalf("exit %d, want %d\n%s\n%s", j.code, exitCheckFailed, j.stdout, tail(j.stderr))
			}
			for _, rank := range []string{"0", "1"} {
				b, err := os.ReadFile(filepath.Join(logs, "log-"+rank+".log"))
				text := string(b)
				if err != nil || strings.Count(text, "Position            Expected            Actual\n") != 6 ||
					!strings.HasPrefix(text, "Size: 1, Iteration:0, Datatype: MPI_CHAR\n") || !strings.Contains(text, "Size: 4, Iteration:1, Datatype: MPI_CHAR\n") {
					t.Errorf("rank %s log (%v):\n%s", rank, err, text)
				}
			}
			clean := filepath.Join(dir, "clean")
			if j := launchCmd(t, m, 2, time.Minute, nil, "osu", "allgather", "-clog:"+clean, "-m", "1:4", "-i", "5"); j.code != 0 {
				t.Errorf("clean run: exit %d\n%s", j.code, tail(j.stderr))
			}
			if _, err := os.Stat(clean); !os.IsNotExist(err) {
				t.Errorf("a clean run made %s: %v", clean, err)
			}
			checkUsageError(t, launchCmd(t, m, 2, time.Minute, nil, "osu", "allgather", "-clog:"+logs, "-m", "1:4"), "already exists")
		})
	}
}

// TestOSUSession: -I starts MPI through an MPI-4 session where the library
// has them (MPICH 4.0: a collective and a point-to-point test, checked,
// the records saying so) and is one clear line where it has not (Open MPI
// 4.1).
func TestOSUSession(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			if m.name == "openmpi" {
				checkUsageError(t, launchCmd(t, m, 2, time.Minute, nil, "osu", "latency", "-I"), "-I: this MPI library has no MPI-4 sessions")
				return
			}
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launchCmd(t, m, 4, 2*time.Minute, nil, "osu", "allreduce", "latency_persistent", "-I", "-c", "-m", "1:64", "-i", "10", "-x", "1", "-json", out)
			checkNoCrash(t, j)
			// latency_persistent needs exactly 2 processes: not run
			if j.code != exitNotRun || !strings.Contains(j.stdout, "# gomb osu: 1 of 2 tests run") {
				t.Fatalf("exit %d\n%s\n%s", j.code, j.stdout, tail(j.stderr))
			}
			st := readRecords(t, out)
			var opt struct {
				Options osu.Options `json:"options"`
			}
			if len(st.results) != 7 || !st.run.DecodeOptions(&opt) || !opt.Options.Session || st.end == nil || st.end.Status != result.EndComplete {
				t.Fatalf("%d results, options %+v, end %+v", len(st.results), opt.Options, st.end)
			}
			for _, r := range st.results {
				if r.Check == nil || !r.Check.Passed {
					t.Errorf("%d B: %+v", r.Bytes, r.Check)
				}
			}
			j = launchCmd(t, m, 2, time.Minute, nil, "osu", "latency", "-I", "-m", "1:64", "-i", "10")
			if j.code != 0 || !strings.Contains(j.stdout, "# OSU MPI Latency Test") {
				t.Errorf("latency -I: exit %d\n%s\n%s", j.code, j.stdout, tail(j.stderr))
			}
		})
	}
}
