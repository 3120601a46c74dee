package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// TestTimeOut: -time 0.001 ends each benchmark with IMB's time-out row and
// a time-out record.
func TestTimeOut(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launch(t, m, 2, 2*time.Minute, nil, "-time", "0.001", "-json", out, "PingPong", "Allreduce")
			if j.code != 0 {
				t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
			}
			if n := strings.Count(j.stdout, " time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over;"); n != 2 {
				t.Errorf("%d time-out rows, want 2 (one per benchmark):\n%s", n, j.stdout)
			}
			s := readRecords(t, out)
			var timeouts []string
			for _, r := range s.results {
				if r.Status == result.StatusTimeOut {
					timeouts = append(timeouts, r.Benchmark)
				}
			}
			if strings.Join(timeouts, ",") != "PingPong,Allreduce" {
				t.Errorf("time-out records %v", timeouts)
			}
			// A time-out ends the benchmark: it is the last record of each.
			last := map[string]string{}
			for _, r := range s.results {
				last[r.Benchmark] = r.Status
			}
			if last["PingPong"] != result.StatusTimeOut || last["Allreduce"] != result.StatusTimeOut {
				t.Errorf("last statuses %v", last)
			}
		})
	}
	// With -multi 1 the text prints a time-out row for every group, and
	// the records say the same: one time-out record per group.
	t.Run("multi", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "r.jsonl")
		j := launch(t, mpis[0], 4, 2*time.Minute, nil, "-time", "0.001", "-multi", "1", "-json", out, "PingPong")
		if j.code != 0 {
			t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
		}
		var groups []int
		for _, r := range readRecords(t, out).results {
			if r.Status == result.StatusTimeOut {
				groups = append(groups, r.Group)
			}
		}
		if fmt.Sprint(groups) != "[0 1]" || strings.Count(j.stdout, " time-out.;") != 2 {
			t.Errorf("time-out records of groups %v, %d time-out rows:\n%s", groups, strings.Count(j.stdout, " time-out.;"), j.stdout)
		}
		roundTrip(t, j.stdout, 4, readRecords(t, out).results, 0.005, 0.005)
	})
}

// TestCheckFailure: with corrupted data (fault injection) -check reports
// the failing rows and the exit status is 3.
func TestCheckFailure(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launch(t, m, 2, 2*time.Minute, []string{"GOMB_FAULT=check-corrupt"},
				"-check", "-msglog", "2:3", "-iter", "10", "-iter_policy", "off", "-json", out, "Allreduce", "Gather", "Barrier")
			checkNoCrash(t, j)
			if j.code != exitCheckFailed {
				t.Fatalf("exit %d, want %d: %s", j.code, exitCheckFailed, tail(j.stderr))
			}
			// Allreduce: 4, 8; Gather: 0 (nothing to check), 4, 8; Barrier: nothing.
			if n := strings.Count(j.stdout, "# !! check failed:"); n != 4 {
				t.Errorf("%d failure lines, want 4:\n%s", n, j.stdout)
			}
			if strings.Count(j.stderr, "-check: 4 result rows failed validation") != 1 {
				t.Errorf("stderr: %s", j.stderr)
			}
			s := readRecords(t, out)
			failed := 0
			for _, r := range s.results {
				if r.Check == nil {
					t.Fatalf("no check in %+v", r)
				}
				if !r.Check.Passed {
					failed++
					if r.Check.Defects <= 0 || !strings.Contains(r.Check.Detail, "wrong elements") {
						t.Errorf("failed check without detail: %+v", r.Check)
					}
				}
			}
			if failed != 4 || s.end == nil || s.end.Status != result.EndCheckFailed {
				t.Errorf("%d failed rows, end %+v", failed, s.end)
			}
		})
	}
}

// startJob starts gomb under m's launcher with 2 ranks, in a process
// group of its own, its stderr captured, env added to the environment; a
// test that ends before it waits for the job kills it, so that no job is
// left to the next test.
func startJob(t *testing.T, m mpiLib, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	needLaunch(t)
	cmd := m.command(t, context.Background(), 2, append([]string{filepath.Join(binDir, m.bin)}, args...)...)
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var se bytes.Buffer
	cmd.Stderr = &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			waitGone(t)
		}
	})
	return cmd, &se
}

// longRun starts a run that takes many seconds and returns once the record
// file holds a few results.
func longRun(t *testing.T, m mpiLib, out string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd, se := startJob(t, m, nil, "imb", "-iter", "200000", "-iter_policy", "off",
		"-msglog", "0:12", "-json", out, "PingPong", "Sendrecv")
	waitLines(t, cmd, out, 3, se)
	return cmd, se
}

// waitExit waits for the launcher with a deadline and returns how long it
// took; then for every gomb process to be gone.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) (time.Duration, int) {
	t.Helper()
	return waitExitOf(t, cmd, limit, "")
}

// waitExitOf is waitExit for a job beside another: it waits only for the
// processes of binary bin (a name in binDir; "" for all of them).
func waitExitOf(t *testing.T, cmd *exec.Cmd, limit time.Duration, bin string) (time.Duration, int) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("job did not end within %v", limit)
	}
	waitGoneOf(t, bin)
	return time.Since(start), cmd.ProcessState.ExitCode()
}

// TestInterrupt: SIGINT or SIGTERM to the launcher stops the job (within
// 20 s, under any load; in well under a second on a quiet machine); the
// records so far are intact and end with an "interrupted" record.
func TestInterrupt(t *testing.T) {
	for _, m := range mpis {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(m.name+"/"+sig.String(), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				cmd, _ := longRun(t, m, out)
				cmd.Process.Signal(sig)
				// The bound is waitExit's: a job that does not stop fails
				// there. How fast it stops (well under a second when the
				// machine is quiet) is a figure, not a test: load moves it.
				took, code := waitExit(t, cmd, 20*time.Second)
				// MPICH's mpiexec returns 0 or the signal number at random
				// once it has forwarded a signal; Open MPI's mpirun is
				// reliable. The end record says what happened either way.
				if code == 0 && m.name == "openmpi" {
					t.Errorf("exit status 0 after %v", sig)
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || s.run == nil || len(s.results) < 2 {
					t.Fatalf("records: %d results, errors %v", len(s.results), s.bad)
				}
				if s.end == nil || s.end.Status != result.EndInterrupted || s.end.Results != len(s.results) {
					t.Errorf("end record %+v, %d results", s.end, len(s.results))
				}
				t.Logf("%s %v: exit %d after %v, %d results kept", m.name, sig, code, took.Round(time.Millisecond), len(s.results))
			})
		}
	}
}

// TestRankDeath: a rank killed with SIGKILL ends the job in bounded time
// with the records written so far intact and nothing left running.
func TestRankDeath(t *testing.T) {
	for _, m := range mpis {
		for _, victim := range []int{0, 1} {
			t.Run(fmt.Sprintf("%s/rank%d", m.name, victim), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				cmd, _ := longRun(t, m, out)
				syscall.Kill(runRecord(t, out).Ranks[victim].PID, syscall.SIGKILL)
				took, code := waitExit(t, cmd, 30*time.Second)
				if code == 0 {
					t.Errorf("exit status 0 after a rank died")
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || len(s.results) < 2 {
					t.Errorf("records after the kill: %d results, errors %v", len(s.results), s.bad)
				}
				// A SIGKILL reaching rank 0, the writer (the victim, or the
				// launcher's clean-up after another rank died), may cut the
				// record in flight; the decoder says so and keeps the rest.
				t.Logf("%s rank %d killed: exit %d after %v, %d results kept (last cut short: %v)", m.name, victim, code, took.Round(time.Millisecond), len(s.results), s.cut != nil)
			})
		}
	}
}

// TestDelayFault: GOMB_FAULT=delay holds one rank back by the time asked,
// at the sizes and in the benchmarks asked, and the run record says so; a
// malformed delay is one usage error.
func TestDelayFault(t *testing.T) {
	const fault = "GOMB_FAULT=delay:1:1024:200us:PingPong"
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launch(t, m, 2, 2*time.Minute, []string{fault},
				"-msglog", "9:11", "-iter", "200", "-iter_policy", "off", "-json", out, "PingPong", "Sendrecv")
			if j.code != 0 {
				t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
			}
			s := readRecords(t, out)
			if "GOMB_FAULT="+s.run.Env["GOMB_FAULT"] != fault {
				t.Errorf("the run record's environment lacks the fault: %v", s.run.Env)
			}
			delayed := 0
			for _, r := range s.results {
				// every round trip waits for rank 1's 200 µs: PingPong's
				// time (half a round trip) is 100 µs at least
				if r.Benchmark == "PingPong" && r.Bytes == 1024 {
					delayed++
					if r.TAvgUS < 100 {
						t.Errorf("PingPong 1024 B: %.2f µs, want ≥ 100 µs (rank 1 delayed 200 µs per iteration)", r.TAvgUS)
					}
				}
			}
			if delayed != 1 {
				t.Errorf("%d PingPong 1024 B rows", delayed)
			}
			j = launch(t, m, 2, time.Minute, []string{"GOMB_FAULT=delay:1:1024:200"}, "-msglog", "9:11", "PingPong")
			checkNoCrash(t, j)
			if j.code != exitUsage || !strings.Contains(j.stderr, "GOMB_FAULT=delay:1:1024:200: delay \"200\"") {
				t.Errorf("malformed delay: exit %d, stderr %s", j.code, j.stderr)
			}
		})
	}
}

// TestJSONFileLocked: a second job naming the -json file a running job
// writes is refused with one line; the first job's records are intact.
func TestJSONFileLocked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	cmd, _ := longRun(t, mpis[0], out)
	// the second job (the other MPI's binary) beside the first: only its
	// own ranks must be gone after it
	m := mpis[1]
	second, se := startJob(t, m, nil, "imb", "-msglog", "0:2", "-iter", "10", "-json", out, "PingPong")
	_, code := waitExitOf(t, second, time.Minute, m.bin)
	if code != exitUsage || strings.Count(se.String(), "another gomb job is writing its records there") != 1 {
		t.Errorf("second job: exit %d:\n%s", code, se.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	waitExit(t, cmd, 30*time.Second)
	s := readRecords(t, out)
	if len(s.bad) > 0 || s.run == nil || len(s.results) < 2 || s.end == nil || s.end.Results != len(s.results) {
		t.Errorf("the first job's records: %d results, end %+v, errors %v", len(s.results), s.end, s.bad)
	}
}

// rankPID is the PID of the gomb process of world rank r of the job whose
// environment holds GOMB_E2E_JOB=job, 0 if none yet.
func rankPID(job string, r int) int {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !bytes.Contains(env, []byte("\x00GOMB_E2E_JOB="+job+"\x00")) {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !bytes.Contains(cmdline, []byte(binDir)) {
			continue // the launcher or its proxy
		}
		for _, k := range []string{"OMPI_COMM_WORLD_RANK", "PMI_RANK"} {
			if bytes.Contains(env, []byte("\x00"+k+"="+strconv.Itoa(r)+"\x00")) {
				return pid
			}
		}
	}
	return 0
}

// TestSignalOneRank: SIGTERM to one rank that is not rank 0 (not to the
// launcher) ends the job with an "interrupted" end record, both MPIs
// (MPICH's launcher kills the others outright when one rank ends: the
// rank passes the signal to rank 0 first).
func TestSignalOneRank(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "r.jsonl")
			cmd, se := startJob(t, m, []string{"GOMB_E2E_JOB=" + dir}, "imb", "-iter", "200000", "-iter_policy", "off",
				"-msglog", "0:12", "-json", out, "PingPong", "Sendrecv")
			waitLines(t, cmd, out, 3, se)
			pid := rankPID(dir, 1)
			if pid == 0 {
				t.Fatal("rank 1 not found")
			}
			syscall.Kill(pid, syscall.SIGTERM)
			waitExit(t, cmd, 30*time.Second)
			s := readRecords(t, out)
			if len(s.bad) > 0 || s.end == nil || s.end.Status != result.EndInterrupted || s.end.Results != len(s.results) {
				t.Errorf("records: end %+v, %d results, errors %v\n%s", s.end, len(s.results), s.bad, se.String())
			}
		})
	}
}

// TestCtrlCQuiet: Ctrl-C to MPICH's launcher while large messages are in
// flight ends the job with an "interrupted" end record and no MPI
// library's crash report (UCX printed a backtrace in 2 of 10 tries).
func TestCtrlCQuiet(t *testing.T) {
	m := mpis[1]
	for try := range 5 {
		out := filepath.Join(t.TempDir(), "r.jsonl")
		cmd, se := startJob(t, m, nil, "osu", "latency", "-m", "524288:4194304", "-i", "100000", "-json", out)
		waitLines(t, cmd, out, 1, se)
		time.Sleep(time.Second)
		cmd.Process.Signal(syscall.SIGINT)
		waitExit(t, cmd, 30*time.Second)
		s := readRecords(t, out)
		if s.end == nil || s.end.Status != result.EndInterrupted || strings.Contains(strings.ToLower(se.String()), "backtrace") {
			t.Errorf("try %d: end %+v\n%s", try, s.end, se.String())
		}
	}
}

// TestLibraryCrash: a rank that a library crashes (GOMB_FAULT=library-crash:
// a fault inside libc as soon as MPI has started) ends the job, both MPIs,
// with gomb's line naming it and no Go goroutine dump (mpi.GuardCrashes;
// before it, Go's dump of every goroutine, as TestSlurmTestbed/fleet met
// once when Open MPI crashed inside MPI_Init).
func TestLibraryCrash(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			j := launch(t, m, 2, time.Minute, []string{"GOMB_FAULT=library-crash:1"}, "-msglog", "0:1", "PingPong")
			checkNoCrash(t, j)
			const want = "gomb: a library crashed this process outside gomb's code with a segmentation fault"
			if j.code == 0 || !strings.Contains(j.stderr, want) {
				t.Errorf("exit %d after %v, want a failure with %q; stderr:\n%s", j.code, j.took.Round(time.Millisecond), want, tail(j.stderr))
			}
		})
	}
}
