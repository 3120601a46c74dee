package input

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/archive"
)

func TestItems(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "my run, 2.jsonl")
	if err := os.WriteFile(odd, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := Items([]string{odd, "3,4 5", "system=a\tlast=2", dir})
	want := []string{odd, "3", "4", "5", "system=a", "last=2", dir}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Items = %q, want %q", got, want)
	}
}

// TestResolve reads files, archive ids and selections, in the order
// given, and counts a run named twice once.
func TestResolve(t *testing.T) {
	log := filepath.Join("..", "..", "importer", "testdata", "osu5_latency.txt")
	records := filepath.Join("..", "..", "importer", "testdata", "gomb_records_osu_bw_np2.jsonl")
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := archive.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &Resolver{Archive: path}
	defer r.Close()
	recs, err := r.Resolve([]string{records})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d runs, %v", len(recs), err)
	}
	if _, _, err := db.Add(recs[0]); err != nil {
		t.Fatal(err)
	}
	// "1" and "suite=osu" are one selection: run 1 if it is an OSU run.
	runs, err := r.Resolve([]string{log, records, "1", "suite=osu"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Run.Source.Format != "osu" || runs[1].Run.RunID != recs[0].Run.RunID {
		t.Errorf("got %d runs", len(runs))
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Error(), "named again, counted once") {
		t.Errorf("problems %v", r.Problems)
	}
	for _, bad := range [][]string{{"nosuchfile"}, {"system=none"}, {"7"}} {
		if _, err := r.Resolve(bad); err == nil {
			t.Errorf("%q resolved", bad)
		}
	}
	none := &Resolver{}
	if _, err := none.Resolve([]string{"3"}); err == nil || !strings.Contains(err.Error(), "no archive") {
		t.Errorf("without an archive: %v", err)
	}
}
