package ringtext

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gomb-hpc/gomb/textfmt"
)

// TestRoundTrip: the ring logs of the importer's tests (mpi-comm-bench's
// and gomb ring's), read, written back from the records and read again,
// give the same samples with the same numbers, and the same header.
func TestRoundTrip(t *testing.T) {
	logs, _ := filepath.Glob("../../importer/testdata/*ring*.txt")
	if len(logs) < 2 {
		t.Fatalf("%d ring logs found", len(logs))
	}
	read := func(name string, data []byte) *textfmt.File {
		f := textfmt.NewFile(name, Format, "00", textfmt.Options{}, nil)
		Read(f, bytes.NewReader(data))
		if len(f.Problems) > 0 || len(f.Runs) == 0 {
			t.Fatalf("%s: %d runs, problems %v", name, len(f.Runs), f.Problems)
		}
		return f
	}
	for _, p := range logs {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			first := read(p, data)
			var text bytes.Buffer
			for _, b := range first.Runs {
				if err := WriteRecords(&text, b); err != nil {
					t.Fatal(err)
				}
			}
			again := read("written", text.Bytes())
			if len(again.Runs) != len(first.Runs) {
				t.Fatalf("%d runs, read back %d:\n%s", len(first.Runs), len(again.Runs), text.String())
			}
			for i, b := range first.Runs {
				g := again.Runs[i]
				for _, k := range []string{"message_size", "interval", "gpu_mode", "mem_copy_local"} {
					if g.Run.Source.Meta[k] != b.Run.Source.Meta[k] {
						t.Errorf("run %d %s: %q, read back %q", i, k, b.Run.Source.Meta[k], g.Run.Source.Meta[k])
					}
				}
				if len(g.Results) != len(b.Results) {
					t.Fatalf("run %d: %d samples, read back %d", i, len(b.Results), len(g.Results))
				}
				for k, w := range b.Results {
					r := g.Results[k]
					if r.Bytes != w.Bytes || r.Cold != w.Cold || r.Sample != w.Sample || r.TMinUS != w.TMinUS ||
						r.TMaxUS != w.TMaxUS || r.TAvgUS != w.TAvgUS || r.MBps != w.MBps {
						t.Errorf("run %d sample %d:\n got %+v\nwant %+v", i, k, r, w)
					}
				}
			}
		})
	}
}
