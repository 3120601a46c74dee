package testutil

import (
	"strings"
	"testing"
)

// TestDiffInsertedLine: a line inserted shows as that line alone, not as
// every later line differing.
func TestDiffInsertedLine(t *testing.T) {
	want := "a\nb\nc\nd\ne\nf\ng\n"
	got := "a\nb\nnew\nc\nd\ne\nf\ng\n"
	d := Diff(want, got)
	var plus, minus int
	for _, l := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			plus++
		case strings.HasPrefix(l, "-"):
			minus++
		}
	}
	if plus != 1 || minus != 0 || !strings.Contains(d, "+new") || !strings.Contains(d, "@@") {
		t.Errorf("diff:\n%s", d)
	}
	if Diff(want, want) != "" {
		t.Errorf("no change, diff %q", Diff(want, want))
	}
}
