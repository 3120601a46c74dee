package imbtext

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// read parses IMB text as gomb import does; gomb's own text must have no
// problems (some logs have malformed rows on purpose).
func read(t *testing.T, name string, data []byte, strict bool) *textfmt.File {
	t.Helper()
	f := textfmt.NewFile(name, Format, "00", textfmt.Options{}, nil)
	Read(f, bytes.NewReader(data))
	if strict && len(f.Problems) > 0 {
		t.Fatalf("%s: %v", name, f.Problems)
	}
	return f
}

// TestRoundTrip: every IMB log of the importer's tests (IMB-MPI1 2018 to
// 2021, IMB-NBC, -MPI4, -EXT, -RMA and gomb's own), read, written back
// from the records and read again, gives the same runs and the same value
// in every column.
func TestRoundTrip(t *testing.T) {
	logs, _ := filepath.Glob("../../importer/testdata/*imb*.txt")
	if len(logs) < 5 {
		t.Fatalf("%d IMB logs found", len(logs))
	}
	for _, p := range logs {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			first := read(t, p, data, false)
			var text bytes.Buffer
			for _, b := range first.Runs {
				if err := WriteRecords(&text, b); err != nil {
					t.Fatal(err)
				}
			}
			again := read(t, "written", text.Bytes(), true)
			if len(again.Runs) != len(first.Runs) {
				t.Fatalf("%d runs, read back %d:\n%s", len(first.Runs), len(again.Runs), text.String())
			}
			for i, b := range first.Runs {
				sameRows(t, b.Results, again.Runs[i].Results, text.String())
			}
		})
	}
}

func sameRows(t *testing.T, want, got []*result.Result, text string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, read back %d:\n%s", len(want), len(got), text)
	}
	for k, w := range want {
		g := got[k]
		precision := func(r *result.Result) float64 {
			if r.Precision == nil {
				return -1
			}
			return *r.Precision
		}
		defects := func(r *result.Result) int64 {
			if r.Check == nil {
				return -1
			}
			return r.Check.Defects
		}
		if g.Benchmark != w.Benchmark || g.NP != w.NP || g.Groups != w.Groups || g.Group != w.Group || g.Bytes != w.Bytes ||
			g.Repetitions != w.Repetitions || g.Status != w.Status || g.TMinUS != w.TMinUS || g.TMaxUS != w.TMaxUS ||
			g.TAvgUS != w.TAvgUS || g.MBps != w.MBps || g.MsgPerSec != w.MsgPerSec || defects(g) != defects(w) ||
			math.Abs(precision(g)-precision(w)) > 5e-5 || math.Abs(g.NeededGB-w.NeededGB) > 0.0011 ||
			g.Reason != w.Reason || g.LargeCount != w.LargeCount {
			t.Errorf("row %d:\n got %+v\nwant %+v\n%s", k, g, w, excerpt(text, w.Benchmark))
		}
		if (g.NBC == nil) != (w.NBC == nil) || (g.NBC != nil && *g.NBC != *w.NBC) {
			t.Errorf("row %d (%s %d B): overlap times %+v, want %+v", k, w.Benchmark, w.Bytes, g.NBC, w.NBC)
		}
	}
}

func excerpt(text, bench string) string {
	if i := strings.Index(text, "# Benchmarking "+bench); i >= 0 {
		return text[i:min(len(text), i+1500)]
	}
	return text
}
