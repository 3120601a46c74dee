package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/pgtest"
	"github.com/gomb-hpc/gomb/result"
)

// The test binary doubles as a writer process for the concurrency and
// kill -9 tests: GOMB_ARCHIVE_WRITER=first:count[:batch|:reverse] adds runs
// first, first+1, ... to the archive GOMB_ARCHIVE_WRITER_DB names, one
// transaction each (batch: in one Batch; reverse: last first, in one
// Batch).
func TestMain(m *testing.M) {
	if spec := os.Getenv("GOMB_ARCHIVE_WRITER"); spec != "" {
		os.Exit(writer(os.Getenv("GOMB_ARCHIVE_WRITER_DB"), spec))
	}
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

func writer(name, spec string) int {
	f := strings.Split(spec, ":")
	first, _ := strconv.Atoi(f[0])
	count, _ := strconv.Atoi(f[1])
	mode := ""
	if len(f) > 2 {
		mode = f[2]
	}
	db, err := Open(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	order := make([]int, 0, count)
	for i := first; i < first+count; i++ {
		order = append(order, i)
	}
	if mode == "reverse" {
		slices.Reverse(order)
	}
	b := db.Batch()
	for _, i := range order {
		var err error
		if mode == "" {
			_, _, err = db.Add(synth(i, 64))
		} else {
			_, _, err = b.Add(synth(i, 64))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := b.Commit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
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
	return openAt(t, filepath.Join(t.TempDir(), "sub", "a.db"))
}

func openAt(t testing.TB, name string) *DB {
	t.Helper()
	db, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func importFile(t *testing.T, name string, opt importer.Options) *importer.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "importer", "testdata", name))
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
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
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
	})
}

// TestSelectors picks runs by every kind of label.
func TestSelectors(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
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
	})
}

// TestHistory follows one metric over time, in date order.
func TestHistory(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
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
	})
}

// TestExportRoundTrip: what goes in comes out, raw samples and all.
func TestExportRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
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
	})
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
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
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
	})
}

// TestIncompleteReplaced: a run added without its end record (a job
// still running, or killed) is replaced by its complete records, which
// are then kept against anything less.
func TestIncompleteReplaced(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
		full := synth(1, 5)
		part := &result.Bundle{Run: full.Run, Results: full.Results[:3]}
		add := func(r *result.Bundle, want Outcome) int64 {
			t.Helper()
			b := db.Batch()
			id, out, err := b.Add(r)
			if err == nil {
				err = b.Commit()
			}
			if err != nil || out != want {
				t.Fatalf("%d results, end %v: outcome %d, want %d (%v)", len(r.Results), r.End != nil, out, want, err)
			}
			return id
		}
		add(part, Added)
		add(part, Known)
		id := add(full, Replaced)
		add(part, Known)
		add(full, Known)
		got, err := db.Load(id)
		if err != nil || len(got.Results) != 5 || got.End == nil {
			t.Fatalf("stored: %v, %+v", err, got)
		}
		if runs, _ := db.List(Selector{}); len(runs) != 1 {
			t.Errorf("%d runs stored, want 1", len(runs))
		}
	})
}

// TestGrownLogSameRuns: the runs of a log are the same runs when the log
// has grown by another run, and the same as those an older gomb stored
// by the whole file's hash.
func TestGrownLogSameRuns(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) {
		db := be.open(t)
		data, err := os.ReadFile(filepath.Join("..", "..", "importer", "testdata", "imb_np2_p2p_coll.txt"))
		if err != nil {
			t.Fatal(err)
		}
		one, err := importer.Import(data, "x.log", importer.Options{})
		if err != nil || len(one.Runs) != 1 {
			t.Fatal(err)
		}
		// as an older gomb stored it: no digest, the file's hash
		old := *one.Runs[0].Run
		src := *old.Source
		src.Digest = ""
		old.Source = &src
		b := db.Batch()
		if _, out, err := b.Add(&result.Bundle{Run: &old, Results: one.Runs[0].Results}); err != nil || out != Added {
			t.Fatal(out, err)
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		grown, err := importer.Import(append(append([]byte{}, data...), data...), "x.log", importer.Options{})
		if err != nil || len(grown.Runs) != 2 || grown.Runs[0].Run.RunID != one.Runs[0].Run.RunID {
			t.Fatalf("grown log: %v, %d runs", err, len(grown.Runs))
		}
		b = db.Batch()
		var outs []Outcome
		for _, r := range append(one.Runs, grown.Runs...) {
			_, out, err := b.Add(r)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, out)
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(outs) != fmt.Sprint([]Outcome{Known, Known, Added}) {
			t.Errorf("outcomes %v, want the first run known (as stored by hash, then by digest), the appended one added", outs)
		}
	})
}
