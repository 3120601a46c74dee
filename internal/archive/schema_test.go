package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
	"golang.org/x/sys/unix"
)

// TestNotAnArchive: files that are not gomb archives are refused, and left
// as they were.
func TestNotAnArchive(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, bytes.Repeat([]byte("not a database\n"), 100), 0o644)
	other := filepath.Join(dir, "other.db")
	o, _ := sql.Open(driverName, other)
	if _, err := o.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	o.Close()
	newer := filepath.Join(dir, "newer.db")
	o, _ = sql.Open(driverName, newer)
	o.Exec(`PRAGMA user_version = 99`)
	o.Close()
	for _, c := range []struct{ path, want string }{
		{text, "not an SQLite archive"},
		{other, "not a gomb archive"},
		{newer, "made by a newer gomb (schema 99"},
		{filepath.Join(dir, "a?b.db"), "cannot be in the path"},
	} {
		_, err := Open(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
	if b, _ := os.ReadFile(text); !bytes.HasPrefix(b, []byte("not a database")) {
		t.Error("the text file was changed")
	}
}

// TestForeignFileUntouched: another program's SQLite file, and a newer
// gomb's archive, are refused before a byte of them changes (opening them
// for gomb would make them WAL databases).
func TestForeignFileUntouched(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	o, _ := sql.Open(driverName, other)
	if _, err := o.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	o.Close()
	newer := filepath.Join(dir, "newer.db")
	o, _ = sql.Open(driverName, newer)
	o.Exec(`PRAGMA user_version = 99`)
	o.Exec(`CREATE TABLE runs (x)`)
	o.Close()
	for _, p := range []string{other, newer} {
		before, _ := os.ReadFile(p)
		if _, err := Open(p); err == nil {
			t.Fatalf("%s opened", p)
		}
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Errorf("%s: its bytes changed", p)
		}
		for _, suffix := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(p + suffix); err == nil {
				t.Errorf("%s%s left behind", p, suffix)
			}
		}
	}
}

// TestReadOnlyArchive: an archive on a file system mounted read-only (a
// bind mount here: root only) answers queries and refuses changes with a
// message that says why.
func TestReadOnlyArchive(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount")
	}
	src, mnt := t.TempDir(), t.TempDir()
	db, err := Open(filepath.Join(src, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Add(synth(1, 3)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := unix.Mount(src, mnt, "", unix.MS_BIND, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Unmount(mnt, 0) })
	if err := unix.Mount("", mnt, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY, ""); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(filepath.Join(mnt, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	runs, err := ro.List(Selector{})
	if err != nil || len(runs) != 1 || !ro.ReadOnly {
		t.Fatalf("read-only list: %v, %d runs, read-only %v", err, len(runs), ro.ReadOnly)
	}
	if r, err := ro.Load(runs[0].ID); err != nil || len(r.Results) != 3 {
		t.Errorf("read-only load: %v", err)
	}
	if _, _, err := ro.Add(synth(2, 3)); err == nil || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("add to a read-only archive: %v", err)
	}
	if _, err := ro.Remove([]int64{runs[0].ID}); err == nil || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("remove from a read-only archive: %v", err)
	}
}

// TestMigration: an archive made by an older schema is brought up to date
// in order and keeps its runs.
func TestMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Add(synth(1, 3))
	v, _ := db.Version()
	db.Close()
	if v != len(migrations) {
		t.Fatalf("schema %d, want %d", v, len(migrations))
	}
	saved := migrations
	defer func() { migrations = saved }()
	migrations = append(append([]string{}, saved...), `ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT ''`)
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != len(saved)+1 {
		t.Errorf("schema %d after the migration", v)
	}
	if n := count(t, db, `SELECT count(*) FROM runs WHERE note = ''`); n != 1 {
		t.Errorf("%d runs after the migration", n)
	}
	mustCheck(t, db)
}

// TestPackMigration: an archive of schema 2 (one JSON text per result
// row) is moved to packed results and every run loads as it was stored.
func TestPackMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	want := []*result.Bundle{synth(1, 3), synth(2, 0), synth(3, 40)}
	saved := migrations
	migrations = saved[:2]
	db, err := Open(path)
	migrations = saved
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range want { // as gomb of schema 2 stored them
		runJSON, _ := json.Marshal(r.Run)
		res, err := db.db.Exec(`INSERT INTO runs (identity, run_id, suite, source, added, nresults, run_json)
			VALUES (?,?,?,?,?,?,?)`, fmt.Sprint("id", i), r.Run.RunID, r.Run.Suite, "gomb", "now", len(r.Results), string(runJSON))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		for k, x := range r.Results {
			b, _ := json.Marshal(x)
			if _, err := db.db.Exec(`INSERT INTO results (run, seq, benchmark, np, grp, bytes, repetitions, status,
				t_min_us, t_max_us, t_avg_us, mbps, result_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				id, k, x.Benchmark, x.NP, x.Group, x.Bytes, x.Repetitions, x.Status, x.TMinUS, x.TMaxUS, x.TAvgUS, x.MBps, string(b)); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != len(migrations) {
		t.Fatalf("schema %d", v)
	}
	mustCheck(t, db)
	for i, w := range want {
		got, err := db.Load(int64(i + 1))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(w.Results)
		b, _ := json.Marshal(got.Results)
		if len(w.Results) == 0 && len(got.Results) == 0 {
			continue
		}
		if string(a) != string(b) {
			t.Errorf("run %d: results differ after the migration", i+1)
		}
	}
}
