package importer

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

// Every importer is fuzzed on its own, past the sniffing, with every log
// in testdata as a seed: whatever the bytes, no panic, problems point at
// lines of the file, and what comes out can be written and read back as
// gomb records.

func seed(f *testing.F) {
	for _, name := range inputs(f) {
		f.Add(mustRead(f, name))
	}
}

func fuzzParser(f *testing.F, format textfmt.Format, parse func(*File, io.Reader)) {
	seed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file := textfmt.NewFile("fuzz", format, "00", Options{NP: 2}, nil)
		parse(file, bytes.NewReader(data))
		check(t, file, data)
	})
}

func FuzzIMB(f *testing.F)  { fuzzParser(f, IMB, imbtext.Read) }
func FuzzOSU(f *testing.F)  { fuzzParser(f, OSU, osutext.Read) }
func FuzzRing(f *testing.F) { fuzzParser(f, Ring, ringtext.Read) }
func FuzzRecords(f *testing.F) {
	fuzzParser(f, Records, importRecords)
}

// FuzzImport goes through the sniffing, as gomb import does.
func FuzzImport(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Import(data, "fuzz", Options{})
		if err != nil {
			if Sniff(data) != "" {
				t.Fatalf("sniffed as %s but failed: %v", Sniff(data), err)
			}
			return
		}
		check(t, file, data)
	})
}

func check(t *testing.T, file *File, data []byte) {
	t.Helper()
	lines := bytes.Count(data, []byte("\n")) + 1
	for _, p := range file.Problems {
		var se *result.SyntaxError
		if !errors.As(p, &se) || se.Line < 0 || se.Line > lines {
			t.Fatalf("problem %v: not at a line of the file (%d lines)", p, lines)
		}
	}
	var b bytes.Buffer
	for _, r := range file.Runs {
		for _, x := range r.Results {
			if x.Bytes < 0 || x.Repetitions < 0 || x.RunID != r.Run.RunID {
				t.Fatalf("result %+v", x)
			}
		}
		if err := r.Encode(&b); err != nil {
			t.Fatalf("cannot write the imported run: %v", err)
		}
	}
	d := result.NewDecoder(&b, "again")
	for d.Scan() {
		if se, ok := d.Record().(*result.SyntaxError); ok {
			t.Fatalf("imported records do not read back: %v", se)
		}
	}
}
