package archive

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func writerCmd(t *testing.T, path string, first, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMB_ARCHIVE_WRITER=%s:%d:%d", path, first, n))
	cmd.Stderr = os.Stderr
	return cmd
}

// TestTwoWriters: two processes adding at once lose nothing.
func TestTwoWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(path) // created before, so both writers find the schema
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 150
	a, b := writerCmd(t, path, 0, n), writerCmd(t, path, n/2, n) // half of b's runs are a's too
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if err := a.Wait(); err != nil {
		t.Errorf("writer a: %v", err)
	}
	if err := b.Wait(); err != nil {
		t.Errorf("writer b: %v", err)
	}
	if got, want := count(t, db, `SELECT count(*) FROM runs`), n+n/2; got != want {
		t.Errorf("%d runs, want %d", got, want)
	}
	if got := count(t, db, `SELECT count(*) FROM results`); got != (n+n/2)*64 {
		t.Errorf("%d results", got)
	}
	mustCheck(t, db)
}

// TestKill9: a writer killed at any moment leaves an archive that passes
// its checks and holds whole runs only; the next writer carries on.
func TestKill9(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	for round, delay := range []time.Duration{150, 300, 450, 600} {
		cmd := writerCmd(t, path, round*100000, 100000)
		cmd.Stderr = nil
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay * time.Millisecond)
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustCheck(t, db)
	runs := count(t, db, `SELECT count(*) FROM runs`)
	if results := count(t, db, `SELECT count(*) FROM results`); results != runs*64 {
		t.Errorf("%d results in %d runs: a run was cut", results, runs)
	}
	t.Logf("%d runs survived four kills", runs)
	if _, added, err := db.Add(synth(999999, 64)); err != nil || !added {
		t.Errorf("add after the kills: %v", err)
	}
}

// TestConcurrentCreate: processes adding to one archive that does not
// exist yet, all at once, all succeed. A probe that read the schema
// version and the tables apart took the first one's new tables for another
// program's in about 1 of 100 such starts of three.
func TestConcurrentCreate(t *testing.T) {
	dir := t.TempDir()
	trials := 150
	if testing.Short() {
		trials = 20
	}
	const writers = 4
	for trial := range trials {
		path := filepath.Join(dir, fmt.Sprintf("new%d.db", trial))
		var cmds []*exec.Cmd
		for w := range writers {
			cmd := writerCmd(t, path, w, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for w, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Errorf("trial %d, writer %d: %v", trial, w, err)
			}
		}
		if t.Failed() {
			return
		}
	}
}
