package input

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/archive"
)

func TestAddFiles(t *testing.T) {
	log := filepath.Join("..", "..", "importer", "testdata", "osu5_latency.txt")
	db, err := archive.Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, want := range []string{"added run 1: osu", "already archived as run 1, not added again"} {
		var out, errOut bytes.Buffer
		if err := AddFiles(db, []string{log}, importer.Options{}, &out, &errOut); err != nil {
			t.Fatalf("pass %d: %v (%s)", i, err, errOut.String())
		}
		if !strings.HasPrefix(out.String(), want) || !strings.Contains(out.String(), "osu5_latency.txt") {
			t.Errorf("pass %d: stdout %q, want %q... naming the file", i, out.String(), want)
		}
		count := []string{"1 of 1 runs added", "0 of 1 runs added"}[i]
		if !strings.Contains(errOut.String(), count) {
			t.Errorf("pass %d: stderr %q, want %q", i, errOut.String(), count)
		}
	}
	var out, errOut bytes.Buffer
	if err := AddFiles(db, []string{filepath.Join(t.TempDir(), "missing.txt")}, importer.Options{}, &out, &errOut); err == nil {
		t.Errorf("a missing file added without error: %q %q", out.String(), errOut.String())
	}
}
