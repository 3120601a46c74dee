package osutext

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

func read(t *testing.T, name string, data []byte) *textfmt.File {
	t.Helper()
	f := readLog(name, data)
	if len(f.Problems) > 0 {
		t.Fatalf("%s: %v", name, f.Problems)
	}
	return f
}

// readLog reads a log that may have problems (a crashed test's header).
func readLog(name string, data []byte) *textfmt.File {
	f := textfmt.NewFile(name, Format, "00", textfmt.Options{}, nil)
	Read(f, bytes.NewReader(data))
	return f
}

func write(t *testing.T, runs []*result.Bundle) []byte {
	t.Helper()
	var text bytes.Buffer
	for _, b := range runs {
		if err := WriteRecords(&text, b); err != nil {
			t.Fatal(err)
		}
	}
	return text.Bytes()
}

// printed is what OSU text holds of a record.
func printed(r *result.Result) []any {
	return []any{r.Benchmark, r.NP, r.Bytes, r.TAvgUS, r.TMinUS, r.TMaxUS, r.Repetitions, r.MBps, r.MsgPerSec,
		r.P50US, r.P90US, r.P99US, r.Tail, r.NBC, r.OneWay, r.Topology, r.TransmitBytes, r.Check}
}

// TestRoundTrip: every OSU log of the importer's tests (OSU 5 to 7 and
// gomb's own text), read, written back from the records and read again,
// gives the same runs and the same value in every column; so does the
// text of a run read back from gomb's records.
func TestRoundTrip(t *testing.T) {
	logs, _ := filepath.Glob("../../importer/testdata/*osu*.txt")
	if len(logs) < 10 {
		t.Fatalf("%d OSU logs found", len(logs))
	}
	for _, p := range logs {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			first := readLog(p, data) // its problems are the importer's tests'
			launched := bytes.Contains(data, []byte("mpirun -np"))
			text := write(t, first.Runs)
			again := read(t, "written", text)
			if len(again.Runs) != len(first.Runs) {
				t.Fatalf("%d runs, read back %d:\n%s", len(first.Runs), len(again.Runs), text)
			}
			for i, b := range first.Runs {
				want, got := b.Results, again.Runs[i].Results
				if len(got) != len(want) {
					t.Fatalf("run %d: %d rows, read back %d:\n%s", i, len(want), len(got), text)
				}
				for k := range want {
					w, g := printed(want[k]), printed(got[k])
					if launched && got[k].NP == 0 {
						w[1] = 0 // the launch line's count: OSU text has no place for it
					}
					if !reflect.DeepEqual(w, g) {
						t.Errorf("run %d row %d:\n got %v\nwant %v\n%s", i, k, g, w, text)
					}
				}
			}
		})
	}
	t.Run("gomb records", func(t *testing.T) {
		f, err := os.Open("../../importer/testdata/gomb_records_osu_bw_np2.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b := &result.Bundle{}
		d := result.NewDecoder(f, "records")
		for d.Scan() {
			switch rec := d.Record().(type) {
			case *result.Run:
				b.Run = rec
			case *result.Result:
				b.Results = append(b.Results, rec)
			case *result.SyntaxError:
				t.Fatal(rec)
			}
		}
		text := write(t, []*result.Bundle{b})
		again := read(t, "written", text)
		if len(again.Runs) != 1 || len(again.Runs[0].Results) != len(b.Results) {
			t.Fatalf("read back %d runs:\n%s", len(again.Runs), text)
		}
		for k, w := range b.Results {
			g := again.Runs[0].Results[k]
			if g.Bytes != w.Bytes || math.Abs(g.MBps-w.MBps) > 0.005 {
				t.Errorf("row %d: %d B %.4f MB/s, read back %d B %.2f MB/s", k, w.Bytes, w.MBps, g.Bytes, g.MBps)
			}
		}
	})
}
