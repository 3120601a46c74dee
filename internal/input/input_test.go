package input

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
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

// TestLaunchNoiseSetups: one system= label holding two set-ups (Open MPI
// at 1 µs, MPICH at 10 µs): the noise of a run's history is measured over
// its own set-up's runs only; a history that spreads beyond any launch
// noise (one set-up's runs alone cannot) is not taken, and says why.
func TestLaunchNoiseSetups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := archive.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(i int, lib string, lat float64, cfg string) *result.Bundle {
		run := &result.Run{RunID: fmt.Sprint("run-", i), Suite: "imb", WorldSize: 2, Start: day.Add(time.Duration(i) * time.Hour),
			MPI: result.MPI{Library: lib}, Labels: map[string]string{"system": "x"}}
		if cfg != "" {
			run.Labels["config"] = cfg
		}
		b := &result.Bundle{Run: run}
		for s := int64(1); s <= 1024; s *= 2 {
			v := lat * (1 + 0.01*float64(i%3))
			b.Results = append(b.Results, &result.Result{RunID: run.RunID, Suite: "imb", Benchmark: "PingPong", NP: 2, Group: -1, Groups: 1,
				Bytes: s, Status: result.StatusOK, TMinUS: v, TMaxUS: v, TAvgUS: v})
		}
		return b
	}
	for i := 0; i < 8; i++ {
		lib, lat := "Open MPI v4.1.4", 1.0
		if i%2 == 1 {
			lib, lat = "MPICH Version: 4.0.2", 10.0
		}
		if _, _, err := db.Add(mk(i, lib, lat, "")); err != nil {
			t.Fatal(err)
		}
	}
	r := &Resolver{Archive: path}
	defer r.Close()
	n, src := r.LaunchNoise(0, []*result.Bundle{mk(20, "Open MPI v4.1.4", 1, "")})
	if !(n > 0 && n < 0.05) || !strings.Contains(src, "measured over the archive's last 4 runs of system=x") {
		t.Errorf("Open MPI's history: noise %.3f (%s), want its own 4 runs' ~1%%", n, src)
	}
	// an MPI the archive does not name: every run of the label, far apart
	n, src = r.LaunchNoise(0, []*result.Bundle{mk(21, "", 1, "")})
	if n != 0 || !strings.Contains(src, "label each set-up with config=") {
		t.Errorf("mixed history: noise %.3f (%s), want none taken and why", n, src)
	}
}
