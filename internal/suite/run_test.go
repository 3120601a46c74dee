package suite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
)

// launchEnv makes the test binary stand for mpirun and the gomb it
// launches (fakeLaunch).
const launchEnv = "GOMB_SUITE_TEST_LAUNCH"

func TestMain(m *testing.M) {
	if os.Getenv(launchEnv) != "" {
		os.Exit(fakeLaunch(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeLaunch is an mpirun line run by the test binary: `gomb suite facts`
// prints h1's and h2's facts; a test writes its records, complete, or
// with "fail" among its words exits 1 first, with "crash-once" does so
// the first time (as a rank a library crashes in MPI_Init), with
// "partial" writes one result and exits 1, or with "sleep" sleeps first
// (until the runner's SIGTERM).
func fakeLaunch(args []string) int {
	args = args[slices.Index(args, "--bind-to")+3:] // the binding, the gomb binary
	if slices.Equal(args, []string{"suite", "facts"}) {
		_ = WriteFacts(os.Stdout, []string{"h1", "h2"}, map[string]*result.Node{"h1": node("h1", 2, 1, 1, 0), "h2": node("h2", 2, 1, 1, 0)})
		return 0
	}
	records := args[slices.Index(args, "-json")+1]
	if slices.Contains(args, "fail") {
		fmt.Fprintln(os.Stderr, "gomb osu: boom")
		return 1
	}
	if slices.Contains(args, "crash-once") {
		if _, err := os.Stat(records + ".crashed"); err != nil {
			_ = os.WriteFile(records+".crashed", nil, 0o644)
			fmt.Fprintln(os.Stderr, "gomb: a library crashed this process while MPI was starting with a segmentation fault (code address 0x0, data address 0x0) on h2, pid 7: what the MPI library printed says why")
			fmt.Fprintln(os.Stderr, "srun: error: h2: task 1: Exited with exit code 1")
			return 1
		}
	}
	if slices.Contains(args, "sleep") {
		time.Sleep(time.Minute)
	}
	f, err := os.Create(records)
	if err != nil {
		return 1
	}
	defer f.Close()
	enc := result.NewEncoder(f)
	_ = enc.Run(&result.Run{Type: result.TypeRun, Schema: result.Schema, RunID: "r", Command: append([]string{"gomb"}, args...)})
	if slices.Contains(args, "partial") {
		_ = enc.Result(&result.Result{Type: result.TypeResult, Schema: result.Schema, RunID: "r", Suite: "osu", Benchmark: "latency",
			NP: 2, Bytes: 0, Repetitions: 1, TAvgUS: 1, Status: result.StatusOK})
		fmt.Fprintln(os.Stderr, "gomb osu: rank 1 lost")
		return 1
	}
	_ = enc.End(&result.End{Type: result.TypeEnd, Schema: result.Schema, RunID: "r", Status: result.EndComplete})
	return 0
}

// runSuite runs rows (a suite file's rows: lines) on h1 and h2 with fake
// launches (fakeLaunch) into dir: the summary, the progress lines and the
// run's error.
func runSuite(t *testing.T, dir, rows string, deadline time.Duration, retries int) (*Summary, string, error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("s.yaml", []byte("suite: s\nrows:\n"+rows))
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	r := &Runner{Dir: dir, Progress: &progress, Env: append(os.Environ(), launchEnv+"=1"), Grace: time.Second,
		Deadline: deadline, Retries: retries}
	a := &Allocation{Nodes: []string{"h1", "h2"}, Source: "test"}
	s, err := r.Execute(f, a, Options{Check: acceptAll, Launcher: Launcher{Kind: Mpirun, Program: self, Gomb: self}})
	return s, progress.String(), err
}

// TestExecute: a whole run gathers the nodes' facts once and reuses them
// when run again, where the launches complete already are kept; its error
// carries the exit status of how it ended (a failed launch, the deadline,
// a row the allocation cannot hold).
func TestExecute(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rows := "  - {id: ok, test: osu latency, nodes: 2}\n  - {id: bad, test: osu latency fail, nodes: 2}\n"
	for i, want := range []Summary{{OK: 1, Failed: 1}, {Kept: 1, Failed: 1}} {
		s, progress, err := runSuite(t, dir, rows, 0, 0)
		gathered := strings.Contains(progress, "gathering the hardware of 2 nodes")
		switch {
		case s == nil || *s != want:
			t.Errorf("run %d: %+v, want %+v\n%s", i+1, s, want, progress)
		case cli.Code(err) != cli.ExitFailure || !strings.Contains(err.Error(), "1 launches failed"):
			t.Errorf("run %d: %v, want 1 launch failed, exit %d", i+1, err, cli.ExitFailure)
		case gathered != (i == 0):
			t.Errorf("run %d: facts gathered %v, want only by the first run\n%s", i+1, gathered, progress)
		}
	}
	if facts, err := ReadFactsFile(filepath.Join(dir, FactsFile)); err != nil || len(facts) != 2 {
		t.Errorf("nodes.jsonl: %v %v", facts, err)
	}
	// the deadline ends the launch under way and leaves the next (the
	// facts are there already: the deadline is the launches')
	dir2 := t.TempDir()
	if err := os.Link(filepath.Join(dir, FactsFile), filepath.Join(dir2, FactsFile)); err != nil {
		t.Fatal(err)
	}
	s, progress, err := runSuite(t, dir2, "  - {id: slow, test: osu latency sleep, nodes: 2}\n  - {id: next, test: osu latency, nodes: 2}\n",
		time.Second, 0)
	if s == nil || s.NotRun != 2 || cli.Code(err) != cli.ExitWatchdog || !strings.Contains(err.Error(), "the suite's deadline passed: 2 launches not run") {
		t.Errorf("deadline: %+v, %v, want 2 not run, exit %d\n%s", s, err, cli.ExitWatchdog, progress)
	}
	// a row the allocation cannot hold: no launch, a usage error
	s, _, err = runSuite(t, t.TempDir(), "  - {id: big, test: osu latency, nodes: 3}\n", 0, 0)
	if s != nil || cli.Code(err) != cli.ExitUsage || !strings.HasPrefix(err.Error(), "s.yaml:3: rows[1].nodes: 3 nodes") {
		t.Errorf("too many nodes: %+v, %v", s, err)
	}
}

// TestRetries: with Retries, a launch that failed having measured nothing
// runs again (a library crash in MPI_Init the first time: then ok; a
// failure every time: failed after 1+Retries attempts), and the ledger and
// the log keep every attempt; a launch that measured something and then
// failed is not run again, nor is any with Retries 0.
func TestRetries(t *testing.T) {
	t.Parallel()
	rows := "  - {id: flaky, test: osu latency crash-once, nodes: 2}\n  - {id: bad, test: osu latency fail, nodes: 2}\n" +
		"  - {id: half, test: osu latency partial, nodes: 2}\n"
	for _, tc := range []struct {
		retries int
		want    Summary
		// attempts: the ledger's count a row (0: ran once)
		attempts map[string]int
	}{
		{1, Summary{OK: 1, Failed: 2, Retried: 2}, map[string]int{"flaky": 2, "bad": 2, "half": 0}},
		{2, Summary{OK: 1, Failed: 2, Retried: 2}, map[string]int{"flaky": 2, "bad": 3, "half": 0}},
		{0, Summary{Failed: 3}, map[string]int{"flaky": 0, "bad": 0, "half": 0}},
	} {
		dir := t.TempDir()
		s, progress, err := runSuite(t, dir, rows, 0, tc.retries)
		if s == nil || *s != tc.want || cli.Code(err) != cli.ExitFailure {
			t.Errorf("retries %d: %+v, %v; want %+v, exit %d\n%s", tc.retries, s, err, tc.want, cli.ExitFailure, progress)
			continue
		}
		ledger, err := ReadLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		for row, n := range tc.attempts {
			e := ledger[LedgerKey(row, 1)]
			if e == nil || e.Attempts != n || len(e.Retried) != max(n-1, 0) {
				t.Errorf("retries %d: %s's ledger entry %+v, want %d attempts", tc.retries, row, e, n)
				continue
			}
			log, _ := os.ReadFile(filepath.Join(dir, "logs", row+"-rep1.log"))
			if got := 1 + strings.Count(string(log), "\n# attempt "); got != max(n, 1) || !strings.HasPrefix(string(log), "# ") {
				t.Errorf("retries %d: %s's log holds %d attempts, want %d:\n%s", tc.retries, row, got, max(n, 1), log)
			}
		}
		if tc.retries == 0 {
			continue
		}
		// why the first attempt ended: gomb's own line, not the launcher's
		const crash = "gomb: a library crashed this process while MPI was starting"
		if e := ledger[LedgerKey("flaky", 1)]; e.Status != StatusOK || !strings.HasPrefix(e.Retried[0], "exit status 1: "+crash) {
			t.Errorf("retries %d: flaky: %s, retried after %q; want ok, after gomb's crash line", tc.retries, e.Status, e.Retried)
		}
		if !strings.Contains(progress, "row flaky rep 1: measured nothing (exit status 1: "+crash) ||
			!strings.Contains(progress, fmt.Sprintf("running it again, attempt 2 of %d", 1+tc.retries)) {
			t.Errorf("retries %d: no progress line of the retry:\n%s", tc.retries, progress)
		}
	}
}
