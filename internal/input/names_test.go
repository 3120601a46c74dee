package input

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// TestReadableNames: report sides are named by their runs' shared labels,
// else by base names, ids and selections, never by a directory.
func TestReadableNames(t *testing.T) {
	dir := t.TempDir()
	fa, fb := filepath.Join(dir, "ib-run.jsonl"), filepath.Join(dir, "tcp-run.jsonl")
	for _, f := range []string{fa, fb} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(labels map[string]string, lib string, start time.Time) *result.Bundle {
		return &result.Bundle{Run: &result.Run{Labels: labels, MPI: result.MPI{Library: lib}, Start: start}}
	}
	day := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	ompi := "Open MPI v4.1.4, package: Debian"
	hpc := func(cfg string) map[string]string { return map[string]string{"system": "hpc4", "config": cfg} }
	for _, c := range []struct {
		name  string
		items [][]string
		runs  [][]*result.Bundle
		want  []string
	}{
		{"labels tell them apart", [][]string{{fa}, {fb}},
			[][]*result.Bundle{{run(hpc("ib"), ompi, day)}, {run(hpc("tcp"), ompi, day)}},
			[]string{"hpc4, ib, Open MPI v4.1.4, 2026-11-03", "hpc4, tcp, Open MPI v4.1.4, 2026-11-03"}},
		{"several runs a side", [][]string{{"system=hpc4 config=ib", "last=5"}, {"3"}},
			[][]*result.Bundle{{run(hpc("ib"), ompi, day), run(hpc("ib"), ompi, day)}, {run(hpc("tcp"), "", time.Time{})}},
			[]string{"hpc4, ib, Open MPI v4.1.4, 2 runs", "hpc4, tcp"}},
		{"labels alike: the files' base names", [][]string{{fa}, {fb}},
			[][]*result.Bundle{{run(nil, ompi, day)}, {run(nil, ompi, day)}},
			[]string{"ib-run.jsonl", "tcp-run.jsonl"}},
		{"no labels: ids and selections", [][]string{{"1,2"}, {"system=x", "last=3"}},
			[][]*result.Bundle{{run(nil, "", time.Time{})}, {run(nil, "", time.Time{})}},
			[]string{"run 1, run 2", "system=x last=3"}},
		{"alike in every way", [][]string{{fa}, {fa}},
			[][]*result.Bundle{{run(nil, "", time.Time{})}, {run(nil, "", time.Time{})}},
			[]string{"A: ib-run.jsonl", "B: ib-run.jsonl"}},
		{"one side", [][]string{{fa}}, [][]*result.Bundle{{run(nil, "", time.Time{})}}, []string{"ib-run.jsonl"}},
	} {
		got := ReadableNames(c.items, c.runs)
		for i := range c.want {
			if i >= len(got) || got[i] != c.want[i] {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
				break
			}
		}
	}
}
