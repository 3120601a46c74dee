package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// gomb runs a command in this process, as main does (without its exit).
func gomb(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var so, se bytes.Buffer
	err = run(&so, &se, args)
	return so.String(), se.String(), err
}

func mustGomb(t *testing.T, args ...string) string {
	t.Helper()
	so, se, err := gomb(t, args...)
	if err != nil {
		t.Fatalf("gomb %v: %v\n%s%s", args, err, so, se)
	}
	return so
}

// testLogs are logs and records of the importer's tests, of every source.
var testLogs = []string{"imb_np2_p2p_coll.txt", "osu5_latency.txt", "gomb_records_osu_bw_np2.jsonl", "imb2018_np3_slurm.txt",
	"imb-fabric-comparison-blog.txt"}

func testLog(name string) string { return filepath.Join("..", "..", "importer", "testdata", name) }

// TestArchiveCopyRoundTrip: an SQLite archive copied into PostgreSQL and
// back into a new SQLite file exports the same records, byte for byte,
// at each step; a copy done again adds nothing; the analysing commands
// read the PostgreSQL archive as they read an SQLite one.
func TestArchiveCopyRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: in the whole suite")
	}
	s := pgtest.Shared(t)
	dir := t.TempDir()
	a, c := filepath.Join(dir, "a.db"), filepath.Join(dir, "c.db")
	pg := s.URL("postgres", pgtest.Superuser, "schema="+s.NewSchema("cmd"))
	args := []string{"archive", "-archive", a, "add", "-system", "hpc4"}
	for _, l := range testLogs {
		args = append(args, testLog(l))
	}
	mustGomb(t, args...)
	// hpc5: the same benchmarks at other times; undated runs (OSU's) are
	// in the order they were added, which the copy keeps
	mustGomb(t, "archive", "-archive", a, "add", "-system", "hpc5", testLog("imb_np2_iter100_policy_off.txt"),
		testLog("gomb_imb_np2_2g_mpich.txt"), testLog("osu532_latency.txt"))
	want := mustGomb(t, "archive", "-archive", a, "export")
	if strings.Count(want, `"type":"run"`) < 5 {
		t.Fatalf("too few runs to copy:\n%.500s", want)
	}
	_, se, err := gomb(t, "archive", "copy", a, pg)
	if err != nil || !strings.Contains(se, "copied ") {
		t.Fatalf("copy to PostgreSQL: %v\n%s", err, se)
	}
	if got := mustGomb(t, "archive", "-archive", pg, "export"); got != want {
		t.Fatalf("PostgreSQL's export differs from SQLite's:\n%s", firstDiff(want, got))
	}
	if _, se, err = gomb(t, "archive", "copy", a, pg); err != nil || !strings.Contains(se, "copied 0 of") {
		t.Errorf("second copy: %v\n%s", err, se)
	}
	mustGomb(t, "archive", "copy", pg, c)
	if got := mustGomb(t, "archive", "-archive", c, "export"); got != want {
		t.Fatalf("the copy back's export differs:\n%s", firstDiff(want, got))
	}
	if got, w := mustGomb(t, "archive", "-archive", pg, "list"), mustGomb(t, "archive", "-archive", a, "list"); dropIDs(got) != dropIDs(w) {
		t.Errorf("list differs:\n%s\nvs\n%s", got, w)
	}
	// the commands that read an archive, on PostgreSQL
	for _, args := range [][]string{
		{"archive", "-archive", pg, "list", "system=hpc5"},
		{"archive", "-archive", pg, "show", "1"},
		{"archive", "-archive", pg, "show", "-text", "1"},
		{"archive", "-archive", pg, "history", "-b", "PingPong", "-bytes", "1024", "system=hpc4"},
		{"archive", "-archive", pg, "check"},
		{"compare", "-archive", pg, "-force", "system=hpc4", "vs", "system=hpc5"},
		{"check", "-archive", pg, "-force", "-baseline", "system=hpc4", "system=hpc5"},
		{"explain", "-archive", pg, "1"},
		{"report", "-archive", pg, "-force", "-o", filepath.Join(dir, "r.html"), "system=hpc4", "vs", "system=hpc5"},
		{"report", "-archive", pg, "-history", "-o", filepath.Join(dir, "h.html"), "system=hpc4"},
	} {
		so, se, err := gomb(t, args...)
		if err != nil && cli.Code(err) != cli.ExitRegression { // check finds hpc5 slower
			t.Errorf("gomb %v: %v\n%s%s", args, err, so, se)
		}
	}
	if so := mustGomb(t, "archive", "-archive", pg, "rm", "1"); !strings.Contains(so, "removed 1 runs") {
		t.Errorf("rm: %s", so)
	}
	// a reader never makes an archive
	missing := s.URL("postgres", pgtest.Superuser, "schema=nothere")
	if _, _, err := gomb(t, "compare", "-archive", missing, "1", "2"); err == nil || !strings.Contains(err.Error(), "no archive at") {
		t.Errorf("a missing schema: %v", err)
	}
}

// dropIDs removes archive list's first column, the run ids, which are
// each archive's own.
func dropIDs(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if _, rest, ok := strings.Cut(l, " "); ok {
			l = rest
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return la[i][:min(len(la[i]), 300)] + "\n  vs\n" + lb[i][:min(len(lb[i]), 300)]
		}
	}
	return "lengths differ"
}

// TestNoPasswordOnCommandLine: a PostgreSQL URL with a password on the
// command line is refused with one line that does not repeat it.
func TestNoPasswordOnCommandLine(t *testing.T) {
	for _, args := range [][]string{
		{"archive", "-archive", "postgres://u:s3cret@db.example/gomb", "list"},
		{"archive", "list", "-archive=postgresql://u:s3cret@db.example/gomb"},
		{"archive", "copy", "a.db", "postgres://u@db.example/gomb?password=s3cret"},
		{"imb", "-archive=postgres://u:s3cret@h/db", "PingPong"},
	} {
		_, se, err := gomb(t, args...)
		if err == nil || cli.Code(err) != cli.ExitUsage || strings.Contains(err.Error()+se, "s3cret") ||
			strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "~/.pgpass") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
