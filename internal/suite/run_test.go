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
// with "fail" among its words exits 1 first, or with "sleep" sleeps
// first (until the runner's SIGTERM).
func fakeLaunch(args []string) int {
	args = args[slices.Index(args, "--bind-to")+3:] // the binding, the gomb binary
	if slices.Equal(args, []string{"suite", "facts"}) {
		_ = WriteFacts(os.Stdout, []string{"h1", "h2"}, map[string]*result.Node{"h1": node("h1", 2, 1, 1, 0), "h2": node("h2", 2, 1, 1, 0)})
		return 0
	}
	if slices.Contains(args, "fail") {
		fmt.Fprintln(os.Stderr, "gomb osu: boom")
		return 1
	}
	if slices.Contains(args, "sleep") {
		time.Sleep(time.Minute)
	}
	f, err := os.Create(args[slices.Index(args, "-json")+1])
	if err != nil {
		return 1
	}
	defer f.Close()
	enc := result.NewEncoder(f)
	_ = enc.Run(&result.Run{Type: result.TypeRun, Schema: result.Schema, RunID: "r", Command: append([]string{"gomb"}, args...)})
	_ = enc.End(&result.End{Type: result.TypeEnd, Schema: result.Schema, RunID: "r", Status: result.EndComplete})
	return 0
}

// TestExecute: a whole run gathers the nodes' facts once and reuses them
// when run again, where the launches complete already are kept; its error
// carries the exit status of how it ended (a failed launch, the deadline,
// a row the allocation cannot hold).
func TestExecute(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	execute := func(dir, rows string, deadline time.Duration) (*Summary, string, error) {
		t.Helper()
		f, err := Parse("s.yaml", []byte("suite: s\nrows:\n"+rows))
		if err != nil {
			t.Fatal(err)
		}
		var progress bytes.Buffer
		r := &Runner{Dir: dir, Progress: &progress, Env: append(os.Environ(), launchEnv+"=1"), Grace: time.Second, Deadline: deadline}
		a := &Allocation{Nodes: []string{"h1", "h2"}, Source: "test"}
		s, err := r.Execute(f, a, Options{Check: acceptAll, Launcher: Launcher{Kind: Mpirun, Program: self, Gomb: self}})
		return s, progress.String(), err
	}
	dir := t.TempDir()
	rows := "  - {id: ok, test: osu latency, nodes: 2}\n  - {id: bad, test: osu latency fail, nodes: 2}\n"
	for i, want := range []Summary{{OK: 1, Failed: 1}, {Kept: 1, Failed: 1}} {
		s, progress, err := execute(dir, rows, 0)
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
	s, progress, err := execute(dir2, "  - {id: slow, test: osu latency sleep, nodes: 2}\n  - {id: next, test: osu latency, nodes: 2}\n",
		time.Second)
	if s == nil || s.NotRun != 2 || cli.Code(err) != cli.ExitWatchdog || !strings.Contains(err.Error(), "the suite's deadline passed: 2 launches not run") {
		t.Errorf("deadline: %+v, %v, want 2 not run, exit %d\n%s", s, err, cli.ExitWatchdog, progress)
	}
	// a row the allocation cannot hold: no launch, a usage error
	s, _, err = execute(t.TempDir(), "  - {id: big, test: osu latency, nodes: 3}\n", 0)
	if s != nil || cli.Code(err) != cli.ExitUsage || !strings.HasPrefix(err.Error(), "s.yaml:3: rows[1].nodes: 3 nodes") {
		t.Errorf("too many nodes: %+v, %v", s, err)
	}
}
