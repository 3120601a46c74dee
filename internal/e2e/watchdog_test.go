package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// TestWatchdog: a rank that stops answering in the middle of a sweep
// (GOMB_FAULT=hang) leaves its peer inside MPI; the watchdog must end the
// job soon after the deadline, with both MPIs, say what was in flight,
// keep the records of every finished size and close them with status
// "deadline", exit 5, and leave no process behind (launch checks).
func TestWatchdog(t *testing.T) {
	// The sizes before the hang are short (100 iterations a size): the
	// 2-s deadline applies to each of them too, and OSU's default 10,100
	// round trips of 8 B once took longer than that with two cores kept
	// busy, so the watchdog ended the job before the hang.
	cases := []struct {
		name, sub string
		args      []string
		fault     string
		inFlight  string // on rank 0's line
		results   int    // records before the hang
	}{
		{"imb", "imb", []string{"-msglog", "0:12", "-iter", "100", "-watchdog", "2", "PingPong"}, "hang:1024:1",
			"watchdog: PingPong, np 2, 1024 bytes in flight for ", 11},
		{"osu", "osu", []string{"latency", "-m", "1:4096", "-i", "100", "-x", "10", "-watchdog", "2"}, "hang:64:0",
			"watchdog: latency, np 2, 64 bytes in flight for ", 6},
		{"ring", "ring", []string{"--count", "50", "--interval", "0.01", "--msg-size", "4096", "-watchdog", "2"}, "hang:4096:1",
			"watchdog: ring, np 2, 4096 bytes in flight for ", 0},
	}
	for _, m := range mpis {
		for _, c := range cases {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				start := time.Now()
				j := launchCmd(t, m, 2, 60*time.Second, []string{"GOMB_FAULT=" + c.fault}, c.sub, append(c.args, "-json", out)...)
				took := time.Since(start)
				if j.code != exitWatchdog {
					t.Errorf("exit %d, want %d", j.code, exitWatchdog)
				}
				// a bound load cannot reach (a quiet machine: 3-4 s), far
				// below the launch's 60 s, which a missed deadline meets
				if took > 40*time.Second {
					t.Errorf("the job took %v to end after a 2 s deadline", took)
				}
				if !strings.Contains(j.stderr, "rank 0 on ") || !strings.Contains(j.stderr, c.inFlight) ||
					!strings.Contains(j.stderr, "past its deadline of 2s (ranks 0-1 on ") {
					t.Errorf("stderr does not say what was in flight:\n%s", tail(j.stderr))
				}
				checkNoCrash(t, j)
				s := readRecords(t, out)
				if len(s.bad) > 0 || s.run == nil || s.end == nil || s.end.Status != result.EndDeadline ||
					!strings.HasPrefix(s.end.Message, c.inFlight) {
					t.Fatalf("records: run %v, end %+v, errors %v", s.run != nil, s.end, s.bad)
				}
				if len(s.results) != c.results {
					t.Errorf("%d results kept, want %d", len(s.results), c.results)
				}
				t.Logf("%s %s: exit %d after %v", m.name, c.name, j.code, took.Round(100*time.Millisecond))
			})
		}
	}
}

// TestRunDeadline: -deadline ends a run that goes on too long, also while
// the ring sleeps between samples.
func TestRunDeadline(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launchCmd(t, m, 2, 60*time.Second, nil, "ring", "--interval", "0.3", "--msg-size", "4096", "-deadline", "2", "-json", out)
			if j.code != exitWatchdog || !strings.Contains(j.stderr, "watchdog: the run passed its deadline of 2s (") {
				t.Errorf("exit %d\n%s", j.code, tail(j.stderr))
			}
			s := readRecords(t, out)
			if s.end == nil || s.end.Status != result.EndDeadline || len(s.results) < 3 {
				t.Errorf("end %+v after %d samples", s.end, len(s.results))
			}
		})
	}
}

// TestRecordsLostMidRun: the record file stops taking writes after the run
// record (its reader goes away, as a full disk would refuse them): the job
// must end in bounded time with one line naming the failure, not hang in
// the next collective.
func TestRecordsLostMidRun(t *testing.T) {
	for _, m := range mpis {
		for _, sub := range [][]string{
			{"imb", "-msglog", "0:12", "-iter", "200", "PingPong", "Allreduce"},
			{"osu", "latency", "-m", "1:4096"},
			{"ring", "--count", "50", "--interval", "0.01"},
		} {
			t.Run(m.name+"/"+sub[0], func(t *testing.T) {
				fifo := filepath.Join(t.TempDir(), "r.jsonl")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
				first := make(chan string, 1)
				go func() { // take the run record, then go away
					f, err := os.Open(fifo)
					if err != nil {
						first <- err.Error()
						return
					}
					line, _ := bufio.NewReader(f).ReadString('\n')
					f.Close()
					first <- line
				}()
				j := launchCmd(t, m, 2, 60*time.Second, nil, sub[0], append(sub[1:], "-json", fifo)...)
				checkNoCrash(t, j)
				if line := <-first; !strings.Contains(line, `"type":"run"`) {
					t.Errorf("first record: %.200s", line)
				}
				if j.code == 0 || !strings.Contains(j.stderr, "broken pipe") {
					t.Errorf("exit %d, stderr:\n%s", j.code, tail(j.stderr))
				}
				t.Logf("%s %s: exit %d after %v", m.name, sub[0], j.code, j.took.Round(100*time.Millisecond))
			})
		}
	}
}
