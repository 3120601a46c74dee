package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// copyFile copies src to a new file dst.
func copyFile(t *testing.T, src, dst string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestJSONWithoutValues: compare and check of runs whose size bands are
// partly empty (a Barrier, a short sweep) and a baseline that lacks sizes
// write valid JSON with null where there is no value, not an empty file.
func TestJSONWithoutValues(t *testing.T) {
	dir := t.TempDir()
	a, b := testdata("imb_np2_p2p_coll.txt"), testdata("imb_np2_iter100_policy_off.txt")
	for _, c := range [][]string{
		{"compare", "-json", filepath.Join(dir, "compare.json"), a, b},
		{"check", "-json", filepath.Join(dir, "check.json"), "-baseline", a, b},
		{"explain", "-json", filepath.Join(dir, "explain.json"), a},
	} {
		_, se, code := gombCmd(t, nil, "", c...)
		if code != 0 && code != exitRegression {
			t.Fatalf("%v: exit %d\n%s", c, code, se)
		}
		data, err := os.ReadFile(c[2])
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("%s: %v", c[0], err)
		}
		if c[0] != "explain" && !strings.Contains(string(data), "null") {
			t.Errorf("%s: no value is null; the case does not test what it should", c[0])
		}
	}
}

// TestOutputIsNoInput: an output that names an input (the same file, or a
// link to it) or the archive is refused and the input left as it was; an
// output is replaced only once complete.
func TestOutputIsNoInput(t *testing.T) {
	dir := t.TempDir()
	log := copyFile(t, testdata("imb2019_np2_twice.txt"), filepath.Join(dir, "in.txt"))
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(log, link); err != nil {
		t.Fatal(err)
	}
	recs := filepath.Join(dir, "r.jsonl")
	if _, se, code := gombCmd(t, nil, "", "import", "-o", recs, log); code != 0 {
		t.Fatal(se)
	}
	db := filepath.Join(dir, "a.db")
	if _, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "add", recs); code != 0 {
		t.Fatal(se)
	}
	before := map[string][]byte{}
	for _, p := range []string{log, recs, db} {
		before[p], _ = os.ReadFile(p)
	}
	env := []string{"GOMB_ARCHIVE=" + db}
	for _, c := range [][]string{
		{"import", "-o", log, log},
		{"import", "-o", link, log},
		{"import", "-o", recs, log, recs},
		{"report", recs, "-o", recs, "-plots", filepath.Join(dir, "p")},
		{"archive", "export", "-o", db},
		{"archive", "export", "-o", db, "system=x"},
		{"compare", "-json", recs, recs, log},
		{"explain", "-json", db, log},
		{"check", "-json", log, "-baseline", log, recs},
	} {
		_, se, code := gombCmd(t, env, "", c...)
		if code != exitUsage || !strings.Contains(se, "that is an input of this command") {
			t.Errorf("%v: exit %d\n%s", c, code, se)
		}
	}
	for p, b := range before {
		if now, _ := os.ReadFile(p); string(now) != string(b) {
			t.Errorf("%s changed", p)
		}
	}
	if so, se, code := gombCmd(t, env, "", "archive", "check"); code != 0 || !strings.Contains(so+se, "ok") {
		t.Errorf("archive check: %d %s %s", code, so, se)
	}
	// a write that fails leaves the old output as it was
	out := copyFile(t, recs, filepath.Join(dir, "out.jsonl"))
	if _, _, code := gombCmd(t, nil, "", "import", "-o", out, filepath.Join(dir, "missing.txt")); code == 0 {
		t.Error("import of a missing file succeeded")
	}
	if now, _ := os.ReadFile(out); string(now) != string(before[recs]) {
		t.Error("a failed import changed its output file")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestConcurrentNewArchive: several gombs adding to one archive that does
// not exist yet all succeed and every run is stored.
func TestConcurrentNewArchive(t *testing.T) {
	dir := t.TempDir()
	logs := []string{testdata("osu5_latency.txt"), testdata("osu_bw_np2.txt"), testdata("osu_bibw_np2.txt")}
	for trial := range 10 {
		db := filepath.Join(dir, fmt.Sprintf("new%d.db", trial))
		var wg sync.WaitGroup
		errs := make([]string, len(logs))
		for i, l := range logs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "add", l); code != 0 {
					errs[i] = se
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Errorf("trial %d: %s", trial, e)
			}
		}
		so, _, _ := gombCmd(t, nil, "", "archive", "-archive", db, "list")
		if n := strings.Count(so, "\n") - 1; n != len(logs) {
			t.Errorf("trial %d: %d runs stored, want %d:\n%s", trial, n, len(logs), so)
		}
	}
}

// TestSameRunOnce: a run named several times on one side counts once,
// with a note.
func TestSameRunOnce(t *testing.T) {
	dir := t.TempDir()
	a := testdata("gomb_records_osu_bw_np2.jsonl")
	b := copyFile(t, a, filepath.Join(dir, "copy.jsonl"))
	out := filepath.Join(dir, "c.json")
	_, se, code := gombCmd(t, nil, "", "compare", "-json", out, a, a, b, "vs", a, a)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, se)
	}
	if n := strings.Count(se, "named again, counted once"); n != 3 {
		t.Errorf("%d notes, want 3:\n%s", n, se)
	}
	var c struct{ A, B struct{ Runs int } }
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &c); err != nil || c.A.Runs != 1 || c.B.Runs != 1 {
		t.Errorf("runs %d vs %d (%v)", c.A.Runs, c.B.Runs, err)
	}
}

// TestNamesWithBlanks: an argument that names a file is that file, blanks
// and commas included.
func TestNamesWithBlanks(t *testing.T) {
	dir := t.TempDir()
	p := copyFile(t, testdata("osu_latency_np2.txt"), filepath.Join(dir, "my run, v2.txt"))
	for _, c := range [][]string{{"explain", p}, {"compare", p, p}, {"check", "-baseline", p, p}} {
		if _, se, code := gombCmd(t, nil, "", c...); code != 0 {
			t.Errorf("%v: exit %d\n%s", c[0], code, se)
		}
	}
}

// TestArchiveDefaultPath: a relative XDG_DATA_HOME is ignored, as the XDG
// spec says.
func TestArchiveDefaultPath(t *testing.T) {
	home := t.TempDir()
	cwd := t.TempDir()
	env := []string{"GOMB_ARCHIVE=", "HOME=" + home, "XDG_DATA_HOME=rel/data"}
	log, _ := filepath.Abs(testdata("osu5_latency.txt"))
	if _, se, code := gombCmdIn(t, cwd, env, "", "archive", "add", log); code != 0 {
		t.Fatalf("exit %d\n%s", code, se)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "gomb", "archive.db")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(cwd, "rel")); err == nil {
		t.Error("the relative XDG_DATA_HOME was used")
	}
}
