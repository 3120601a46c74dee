package suite

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// writeRun writes a record file of one osu run: its rows (bytes, t_avg,
// MB/s), labelled as the suite labels its launches.
func writeRun(t *testing.T, dir, row string, rep int, bench string, complete bool, rows ...[3]float64) {
	t.Helper()
	path := filepath.Join(dir, "records", row+"-rep"+string(rune('0'+rep))+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := result.NewEncoder(f)
	run := &result.Run{Type: result.TypeRun, Schema: result.Schema, RunID: row, Suite: "osu", WorldSize: 2, Hosts: []string{"h1", "h2"},
		Command: []string{"gomb", "osu", bench}, Labels: map[string]string{"campaign": "s", "row": row, "rep": string(rune('0' + rep))}}
	if err := enc.Run(run); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		x := &result.Result{Type: result.TypeResult, Schema: result.Schema, RunID: row, Suite: "osu", Benchmark: bench, NP: 2, Groups: 1,
			Group: -1, Bytes: int64(r[0]), Repetitions: 10, Status: result.StatusOK, TMinUS: r[1], TMaxUS: r[1], TAvgUS: r[1], MBps: r[2],
			Ranks: []int{}, RankMeanUS: []float64{}, SamplesUS: [][]float64{}, Time: time.Now()}
		if err := enc.Result(x); err != nil {
			t.Fatal(err)
		}
	}
	if complete {
		if err := enc.End(&result.End{Type: result.TypeEnd, Schema: result.Schema, RunID: row, Status: result.EndComplete}); err != nil {
			t.Fatal(err)
		}
	}
}

func writeLedger(t *testing.T, dir string, es ...Entry) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, LedgerFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, e := range es {
		e.Type = "launch"
		json.NewEncoder(f).Encode(e)
	}
}

// TestResults: the table's values are the records' (the median over
// repetitions, the spread half their range), with the reference, the
// ratio and the verdict; skipped and failed rows keep their reasons; a
// missed requirement counts.
func TestResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "records"), 0o755)
	f, err := Parse("s.yaml", []byte(`suite: s
reference: X
rows:
  - {id: lat, test: osu latency -m 8:8, sizes: 8, nodes: 2, references: {X: 2 us}, required: <= 2.5 us}
  - {id: bw, test: osu bibw -m 16:32, sizes: [16, 32], nodes: 2, metric: bandwidth, references: {X: [-, 0.5 GB/s]}, required: ">= 600 MB/s"}
  - {id: gpu, test: osu barrier, nodes: all, placement: per-gpu}
  - {id: broken, test: osu barrier, nodes: all, required: <= 1 ms}
`))
	if err != nil {
		t.Fatal(err)
	}
	// lat: 2.0, 3.0, 2.2 us: median 2.2, spread (3.0-2.0)/2/2.2 = 22.7%,
	// ratio 2.2/2 = 1.10, 2.2 <= 2.5: PASS
	writeRun(t, dir, "lat", 1, "latency", true, [3]float64{8, 2.0, 4})
	writeRun(t, dir, "lat", 2, "latency", true, [3]float64{8, 3.0, 2.7})
	writeRun(t, dir, "lat", 3, "latency", true, [3]float64{8, 2.2, 3.6})
	// bw: one repetition; 32 B at 550 MB/s: ratio 550/500 = 1.10, < 600: FAIL
	writeRun(t, dir, "bw", 1, "bibw", true, [3]float64{16, 1, 16}, [3]float64{32, 1, 550})
	// an incomplete run of bw's second repetition is not taken
	writeRun(t, dir, "bw", 2, "bibw", false, [3]float64{16, 1, 1e9}, [3]float64{32, 1, 1e9})
	writeLedger(t, dir,
		Entry{Row: "lat", Rep: 1, Status: StatusOK}, Entry{Row: "lat", Rep: 2, Status: StatusOK}, Entry{Row: "lat", Rep: 3, Status: StatusKept},
		Entry{Row: "bw", Rep: 1, Status: StatusOK}, Entry{Row: "bw", Rep: 2, Status: StatusFailed, Reason: "exit status 1: gomb osu: boom"},
		Entry{Row: "gpu", Status: StatusSkipped, Reason: "per-gpu: h1 has no GPU"},
		Entry{Row: "broken", Rep: 1, Status: StatusFailed, Reason: "exit status 137: killed"})
	// a launch that died before its run record, and one killed as it
	// wrote it: no runs, and no error
	os.WriteFile(filepath.Join(dir, "records", "broken-rep1.jsonl"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "records", "broken-rep2.jsonl"), []byte(`{"type":"ru`), 0o644)
	tab, err := Results(f, dir, TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// every run of the records, the incomplete one among them
	if len(tab.Runs) != 5 || tab.Runs[0].End == nil || tab.Runs[1].End != nil {
		t.Errorf("%d runs, want 5, bw's second incomplete", len(tab.Runs))
	}
	type want struct {
		value, spread, ratio float64
		reps, planned        int
		verdict, reason      string
	}
	nan := math.NaN()
	wants := []want{
		{2.2, 1.0 / 2 / 2.2, 1.1, 3, 3, Pass, ""},
		{16, nan, nan, 1, 2, Fail, ""},
		{550, nan, 1.1, 1, 2, Fail, ""},
		{nan, nan, nan, 0, 0, Skipped, "per-gpu: h1 has no GPU"},
		{nan, nan, nan, 0, 1, Failed, "exit status 137: killed"},
	}
	if len(tab.Lines) != len(wants) {
		t.Fatalf("%d lines, want %d", len(tab.Lines), len(wants))
	}
	same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-9 }
	for i, w := range wants {
		l := tab.Lines[i]
		if !same(l.Value, w.value) || !same(l.Spread, w.spread) || !same(l.Ratio, w.ratio) || l.Reps != w.reps ||
			l.Planned != w.planned || l.Verdict != w.verdict || l.Reason != w.reason {
			t.Errorf("line %d (%s %s): value %v spread %v ratio %v reps %d/%d %s %q; want %+v", i, l.Row.ID, l.Size, l.Value, l.Spread,
				l.Ratio, l.Reps, l.Planned, l.Verdict, l.Reason, w)
		}
	}
	// FAIL at 16 B and at 32 B, and the broken row's requirement unmet
	if tab.Missed != 3 {
		t.Errorf("missed %d, want 3", tab.Missed)
	}
	if got := tab.Lines[0].ValueText() + " " + tab.Lines[0].SpreadText() + " " + tab.Lines[0].RatioText(); got != "2.20 us ±22.7% 1.10x" {
		t.Errorf("texts: %s", got)
	}
	if _, err := Results(f, t.TempDir(), TableOptions{}); err == nil || !strings.Contains(err.Error(), "no suite run there") {
		t.Errorf("an empty directory: %v", err)
	}
}
