package archive

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func writerCmd(t *testing.T, name string, first, n int, mode ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	spec := fmt.Sprintf("%d:%d", first, n)
	for _, m := range mode {
		spec += ":" + m
	}
	cmd.Env = append(os.Environ(), "GOMB_ARCHIVE_WRITER="+spec, "GOMB_ARCHIVE_WRITER_DB="+name)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestTwoWriters: two processes adding at once lose nothing, and store a
// run they both add once.
func TestTwoWriters(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		name := be.new(t)
		db := openAt(t, name) // created before, so both writers find the schema
		const n = 150
		a, b := writerCmd(t, name, 0, n), writerCmd(t, name, n/2, n) // half of b's runs are a's too
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
	})
}

// TestRacingBatches: eight processes add the same 40 runs at once, each
// in one transaction, half of them in the opposite order (two writers
// that each hold rows the other waits for would deadlock, and PostgreSQL
// would fail one): every writer succeeds and every run is stored once.
func TestRacingBatches(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		name := be.new(t)
		db := openAt(t, name)
		var cmds []*exec.Cmd
		for w := range 8 {
			mode := "batch"
			if w%2 == 1 {
				mode = "reverse"
			}
			cmd := writerCmd(t, name, 0, 40, mode)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for w, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Errorf("writer %d: %v", w, err)
			}
		}
		if got := count(t, db, `SELECT count(*) FROM runs`); got != 40 {
			t.Errorf("%d runs, want 40", got)
		}
		if got := count(t, db, `SELECT count(*) FROM (SELECT DISTINCT run_id FROM runs) x`); got != 40 {
			t.Errorf("%d distinct runs, want 40", got)
		}
		mustCheck(t, db)
	})
}

// TestKill9: a writer killed at any moment leaves an archive that passes
// its checks and holds whole runs only; the next writer carries on.
func TestKill9(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) { kill9(t, be.new(t)) })
}

func kill9(t *testing.T, name string) {
	for round, delay := range []time.Duration{150, 300, 450, 600} {
		cmd := writerCmd(t, name, round*100000, 100000)
		cmd.Stderr = nil
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay * time.Millisecond)
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}
	db := openAt(t, name)
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
	eachBackend(t, func(t *testing.T, be backend) {
		trials := 150
		if testing.Short() {
			trials = 20
		}
		if be.name == "postgres" {
			trials = 8 // each a schema made by the first of four to take the lock
		}
		concurrentCreate(t, be, trials)
	})
}

func concurrentCreate(t *testing.T, be backend, trials int) {
	const writers = 4
	for trial := range trials {
		path := be.new(t)
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
