package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gomb-hpc/gomb/importer"
)

// TestSuiteText: a stored run of every IMB suite gomb measures prints in
// its suite's layout (gomb archive show -text), and the text reads back as
// the same rows.
func TestSuiteText(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "..", "internal", "e2e", "testdata", "imb", "imb_*.txt"))
	suites := map[string]bool{}
	for _, p := range logs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := importer.Import(data, filepath.Base(p), importer.Options{})
		if err != nil || len(f.Runs) != 1 {
			t.Fatalf("%s: %v, %d runs", p, err, len(f.Runs))
		}
		b := f.Runs[0]
		suites[b.Run.Suite] = true
		var out bytes.Buffer
		if err := writeSuiteText(&out, b); err != nil {
			t.Errorf("%s (suite %s): %v", p, b.Run.Suite, err)
			continue
		}
		again, err := importer.Import(out.Bytes(), "again", importer.Options{})
		if err != nil || len(again.Runs) != 1 || len(again.Runs[0].Results) != len(b.Results) || again.Runs[0].Run.Suite != b.Run.Suite {
			t.Errorf("%s: the text reads back as %v runs (%v)", p, len(again.Runs), err)
		}
	}
	for _, s := range []string{"imb", "imb-nbc", "imb-mpi4", "imb-ext", "imb-rma", "imb-io", "imb-p2p", "imb-mt"} {
		if !suites[s] {
			t.Errorf("no reference log of suite %s", s)
		}
	}
}
