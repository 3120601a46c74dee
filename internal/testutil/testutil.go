// Package testutil holds helpers shared by gomb's tests: golden files and
// unified diffs.
package testutil

import (
	"bytes"
	"os"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
)

// Diff is a unified diff from want to got, three lines of context around
// each change, so that one inserted line shows as one line.
func Diff(want, got string) string {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(want), B: difflib.SplitLines(got),
		FromFile: "want", ToFile: "got", Context: 3,
	})
	if err != nil {
		return err.Error()
	}
	return d
}

// Golden compares got with the file at path, or rewrites the file when
// update is set.
func Golden(t *testing.T, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", path, Diff(string(want), string(got)))
	}
}
