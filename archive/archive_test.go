package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/result"
)

// The test binary doubles as a writer process for the concurrency and
// kill -9 tests: GOMB_ARCHIVE_WRITER=path:first:count adds runs first,
// first+1, ... to the archive at path, one transaction each.
func TestMain(m *testing.M) {
	if spec := os.Getenv("GOMB_ARCHIVE_WRITER"); spec != "" {
		os.Exit(writer(spec))
	}
	os.Exit(m.Run())
}

func writer(spec string) int {
	f := strings.Split(spec, ":")
	first, _ := strconv.Atoi(f[1])
	count, _ := strconv.Atoi(f[2])
	db, err := Open(f[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	for i := first; i < first+count; i++ {
		if _, _, err := db.Add(synth(i, 64)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// synth is a made-up measured run: run i, on one of three systems, with
// sizes results of PingPong whose time grows with i.
func synth(i, sizes int) *result.Bundle {
	id := fmt.Sprintf("synth-%06d", i)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
	run := &result.Run{Type: result.TypeRun, Schema: result.Schema, RunID: id, Suite: "imb", Start: start,
		MPI:       result.MPI{Impl: "openmpi", Library: "Open MPI v4.1.4, package: Debian OpenMPI"},
		WorldSize: 2 + 2*(i%2), Labels: map[string]string{"system": []string{"hpc4", "hpc5", "lab"}[i%3], "config": "c" + strconv.Itoa(i%2)}}
	r := &result.Bundle{Run: run}
	for k := 0; k < sizes; k++ {
		t := float64(1+k) + float64(i)/1000
		r.Results = append(r.Results, &result.Result{Type: result.TypeResult, Schema: result.Schema, RunID: id,
			Suite: "imb", Benchmark: "PingPong", NP: 2, Groups: 1, Group: -1, Bytes: int64(1) << k % (1 << 62),
			Repetitions: 1000, Status: result.StatusOK, TMinUS: t, TMaxUS: t, TAvgUS: t, MBps: 1 / t,
			Locality: result.IntraNode, Ranks: []int{0, 1}, RankMeanUS: []float64{t, t},
			SamplesUS: [][]float64{{t, t, t}, {t, t, t}}})
	}
	r.End = &result.End{Type: result.TypeEnd, Schema: result.Schema, RunID: id, Status: "complete", Results: sizes}
	return r
}

func open(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "sub", "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func importFile(t *testing.T, name string, opt importer.Options) *importer.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "importer", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := importer.Import(data, name, opt)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func count(t *testing.T, db *DB, q string) int {
	t.Helper()
	var n int
	if err := db.db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func mustCheck(t *testing.T, db *DB) {
	t.Helper()
	problems, err := db.Verify()
	if err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", err, problems)
	}
}

// TestAddTwiceIsANoOp: the same log, even renamed or with other labels,
// and the same gomb run are stored once.
func TestAddTwiceIsANoOp(t *testing.T) {
	db := open(t)
	f := importFile(t, "imb-fabric-comparison-blog.txt", importer.Options{Labels: map[string]string{"system": "dell"}})
	var ids []int64
	for _, r := range f.Runs {
		id, added, err := db.Add(r)
		if err != nil || !added {
			t.Fatalf("add: %v %v", added, err)
		}
		ids = append(ids, id)
	}
	again := importFile(t, "imb-fabric-comparison-blog.txt", importer.Options{Labels: map[string]string{"system": "other"}})
	again.Runs[0].Run.Source.File = "renamed.log"
	for i, r := range again.Runs {
		id, added, err := db.Add(r)
		if err != nil || added || id != ids[i] {
			t.Errorf("second add of run %d: id %d added %v err %v", i, id, added, err)
		}
	}
	s := synth(1, 4)
	if _, added, _ := db.Add(s); !added {
		t.Error("new run not added")
	}
	if _, added, _ := db.Add(synth(1, 4)); added {
		t.Error("the same gomb run added twice")
	}
	if n := count(t, db, `SELECT count(*) FROM runs`); n != 4 {
		t.Errorf("%d runs, want 4", n)
	}
	if n := count(t, db, `SELECT count(*) FROM results`); n != 3*24+4 {
		t.Errorf("%d results", n)
	}
	mustCheck(t, db)
}

// TestSelectors picks runs by every kind of label.
func TestSelectors(t *testing.T) {
	db := open(t)
	for i := 0; i < 12; i++ {
		r := synth(i, 2)
		if i == 5 {
			r.Run.Labels["fw"] = "2.1"
			r.Run.MPI.Library = "MPICH Version: 4.0\nMPICH Release date: ..."
		}
		if i == 7 {
			for _, x := range r.Results {
				x.Locality = result.InterNode
			}
		}
		if _, _, err := db.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	f := importFile(t, "osu5_latency.txt", importer.Options{Labels: map[string]string{"system": "hpc4"}})
	if _, _, err := db.Add(f.Runs[0]); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		words []string
		want  []int64 // database ids: synth run i is id i+1, the OSU log 13
	}{
		{nil, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
		{[]string{"system=hpc4"}, []int64{1, 4, 7, 10, 13}},
		{[]string{"system=hpc4", "config=c0"}, []int64{1, 7}},
		{[]string{"np=4", "system=hpc5"}, []int64{2, 8}},
		{[]string{"fw=2.1"}, []int64{6}},
		{[]string{"mpi=MPICH"}, []int64{6}},
		{[]string{"mpi=Open MPI", "last=2"}, []int64{11, 12}},
		{[]string{"locality=inter-node"}, []int64{8}},
		{[]string{"locality=intra-node", "until=2026-01-01T02:00:00Z"}, []int64{1, 2, 3}},
		{[]string{"since=2026-01-01T10:00:00Z"}, []int64{11, 12}},
		{[]string{"until=2026-01-01"}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{[]string{"suite=osu"}, []int64{13}},
		{[]string{"source=osu", "system=hpc4"}, []int64{13}},
		{[]string{"3", "9", "system=lab"}, []int64{3, 9}},
		{[]string{"system=none"}, nil},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.words, " "), func(t *testing.T) {
			sel, err := ParseSelector(c.words)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := db.List(sel)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range runs {
				got = append(got, r.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	runs, _ := db.List(Selector{IDs: []int64{6}})
	if r := runs[0]; r.MPI != "MPICH 4.0" || r.Labels["fw"] != "2.1" || r.Labels["system"] != "lab" || r.NP != 4 || r.Results != 2 || r.Status != "complete" {
		t.Errorf("run 6: %+v", r)
	}
	for _, bad := range [][]string{{"np=x"}, {"locality=far"}, {"since=yesterday"}, {"last=0"}, {"=x"}, {"word"}} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestHistory follows one metric over time, in date order.
func TestHistory(t *testing.T) {
	db := open(t)
	for _, i := range []int{4, 0, 2, 3, 1} { // added out of order
		if _, _, err := db.Add(synth(i, 3)); err != nil {
			t.Fatal(err)
		}
	}
	sel, _ := ParseSelector([]string{"since=2026-01-01T01:00:00Z"})
	pts, err := db.History(sel, "pingpong", 2, 2, "t_avg_us")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		got = append(got, fmt.Sprintf("%s=%.3f", p.Run.Started.Format("15"), p.Value))
	}
	if want := "[01=2.001 02=2.002 03=2.003 04=2.004]"; fmt.Sprint(got) != want {
		t.Errorf("history %v, want %s", got, want)
	}
	if pts, _ := db.History(Selector{}, "PingPong", 3, 0, "t_avg_us"); len(pts) != 0 {
		t.Errorf("a size no run has: %v", pts)
	}
	if _, err := db.History(Selector{}, "PingPong", 2, 0, "speed"); err == nil {
		t.Error("unknown metric accepted")
	}
}

// TestExportRoundTrip: what goes in comes out, raw samples and all.
func TestExportRoundTrip(t *testing.T) {
	db := open(t)
	f := importFile(t, "gomb_records_osu_bw_np2.jsonl", importer.Options{})
	in := append(f.Runs, synth(7, 5))
	in = append(in, importFile(t, "imb2018_np3_slurm.txt", importer.Options{Labels: map[string]string{"system": "old"}}).Runs...)
	var want bytes.Buffer
	for _, r := range in {
		if _, _, err := db.Add(r); err != nil {
			t.Fatal(err)
		}
		if err := r.Encode(&want); err != nil {
			t.Fatal(err)
		}
	}
	var got bytes.Buffer
	n, err := db.Export(Selector{}, &got)
	if err != nil || n != 3 {
		t.Fatalf("exported %d: %v", n, err)
	}
	// Export goes by date: the 2018 log first, then the synthetic run (2026-01-01) and the OSU run.
	if sameRecords(t, want.Bytes(), got.Bytes()) != nil {
		t.Error("export differs from what was added")
	}
	back, err := importer.Import(got.Bytes(), "export.jsonl", importer.Options{})
	if err != nil || len(back.Runs) != 3 || len(back.Problems) > 0 {
		t.Fatalf("export does not import: %v %v", err, back)
	}
}

// sameRecords compares two record streams as sets of lines.
func sameRecords(t *testing.T, a, b []byte) error {
	t.Helper()
	set := func(x []byte) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(strings.TrimSpace(string(x)), "\n") {
			var v any // normalise key order
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatal(err)
			}
			n, _ := json.Marshal(v)
			m[string(n)]++
		}
		return m
	}
	sa, sb := set(a), set(b)
	for k, n := range sa {
		if sb[k] != n {
			t.Logf("missing or changed: %.300s", k)
			return fmt.Errorf("differ")
		}
	}
	if len(sa) != len(sb) {
		return fmt.Errorf("%d vs %d records", len(sa), len(sb))
	}
	return nil
}

// TestRemove takes runs and their results and labels out.
func TestRemove(t *testing.T) {
	db := open(t)
	for i := 0; i < 3; i++ {
		db.Add(synth(i, 4))
	}
	n, err := db.Remove([]int64{2, 99})
	if err != nil || n != 1 {
		t.Fatalf("removed %d: %v", n, err)
	}
	if c := count(t, db, `SELECT count(*) FROM results WHERE run = 2`) + count(t, db, `SELECT count(*) FROM labels WHERE run = 2`); c != 0 {
		t.Errorf("%d rows of run 2 left", c)
	}
	if _, err := db.Load(2); err == nil {
		t.Error("removed run loads")
	}
	mustCheck(t, db)
}

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

// The query benchmarks run on an archive of 10,000 runs of 24 sizes each
// (240,000 results), built once (go test -bench . ./archive).
var big struct {
	path string
	err  error
}

func bigArchive(b *testing.B) *DB {
	b.Helper()
	if big.path == "" && big.err == nil {
		dir, err := os.MkdirTemp("", "gomb-bench-")
		if err != nil {
			b.Fatal(err)
		}
		big.path = filepath.Join(dir, "big.db")
		db, err := Open(big.path)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for i := 0; i < 10000; i++ {
			if _, _, err := db.Add(synth(i, 24)); err != nil {
				big.err = err
				break
			}
		}
		db.Close()
		b.Logf("built 10,000 runs in %v", time.Since(start).Round(time.Millisecond))
	}
	if big.err != nil {
		b.Fatal(big.err)
	}
	db, err := Open(big.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkList(b *testing.B) {
	db := bigArchive(b)
	for _, words := range [][]string{nil, {"system=hpc4", "config=c1"}, {"last=20"}} {
		sel, _ := ParseSelector(words)
		b.Run(strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
			for b.Loop() {
				runs, err := db.List(sel)
				if err != nil || len(runs) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHistory(b *testing.B) {
	db := bigArchive(b)
	for _, words := range [][]string{nil, {"system=hpc5"}} {
		sel, _ := ParseSelector(words)
		b.Run(strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
			for b.Loop() {
				pts, err := db.History(sel, "PingPong", 1024, 2, "t_avg_us")
				if err != nil || len(pts) == 0 {
					b.Fatal(err, len(pts))
				}
			}
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	db := open(b)
	i := 0
	for b.Loop() {
		if _, _, err := db.Add(synth(i, 24)); err != nil {
			b.Fatal(err)
		}
		i++
	}
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
