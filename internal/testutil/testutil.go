// Package testutil holds helpers shared by gomb's tests: golden files and
// line diffs.
package testutil

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Diff lists the first lines where got differs from want.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 20; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d\n  want %q\n  got  %q\n", i+1, a, c)
			shown++
		}
	}
	return b.String()
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
