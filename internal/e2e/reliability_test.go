package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
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

// TestMeasuringOutputIsNoInput: a measuring command refuses, from rank 0
// and before it writes anything, an output that names one of its inputs,
// the archive or another of its outputs; the files stay as they were.
func TestMeasuringOutputIsNoInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "add", testdata("osu5_latency.txt")); code != 0 {
		t.Fatal(se)
	}
	sizes := filepath.Join(dir, "sizes.txt")
	names := filepath.Join(dir, "names.txt")
	for p, s := range map[string]string{sizes: "8\n1k\n", names: "PingPong\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string][]byte{}
	for _, p := range []string{db, sizes, names} {
		before[p], _ = os.ReadFile(p)
	}
	for i, c := range []struct {
		args []string
		want string
	}{
		{[]string{"imb", "-msglog", "0:2", "-iter", "10", "-archive=" + db, "-json", db, "PingPong"}, "that is also -archive"},
		{[]string{"imb", "-msglen", sizes, "-json", sizes, "PingPong"}, "that is also -msglen"},
		{[]string{"imb", "-input", names, "-o", names}, "that is also -input"},
		{[]string{"osu", "latency", "-m", "1:8", "-archive=" + db, "-json", db}, "that is also -archive"},
		{[]string{"ring", "--count", "1", "-json", sizes, "--prom", sizes}, "-json " + sizes + ": that is also --prom"},
	} {
		m := mpis[i%2]
		j := launchArgv(t, m, 2, time.Minute, nil, nil, c.args...)
		checkNoCrash(t, j)
		if j.code != exitUsage || strings.Count(j.stderr, c.want) != 1 {
			t.Errorf("%s %v: exit %d, want one line with %q:\n%s", m.name, c.args, j.code, c.want, j.stderr)
		}
	}
	for p, b := range before {
		if now, _ := os.ReadFile(p); string(now) != string(b) {
			t.Errorf("%s changed", p)
		}
	}
}

// TestWrongBinary: the MPICH build under Open MPI's mpirun, or the reverse,
// stops with one line naming the build to use, and writes no records.
// Rank 0 starts a second late (a loaded machine): the other ranks, which
// refuse too, must not end the job before its line is out (the launchers
// end a job at its first failed process; 5 of 20 jobs lost the line so on
// a loaded machine).
func TestWrongBinary(t *testing.T) {
	needLaunch(t)
	const late = `[ "${OMPI_COMM_WORLD_RANK:-$PMI_RANK}" = 0 ] && sleep 1; exec "$0" "$@"`
	for i, m := range mpis {
		other := mpis[1-i]
		out := filepath.Join(t.TempDir(), "r.jsonl")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := m.command(t, ctx, 3, "sh", "-c", late, filepath.Join(binDir, other.bin), "imb", "-msglog", "0:1", "-iter", "10", "-json", out, "PingPong")
		var se bytes.Buffer
		cmd.Stderr = &se
		err := cmd.Run()
		cancel()
		waitGone(t)
		var lines []string
		for _, l := range strings.Split(se.String(), "\n") {
			if strings.HasPrefix(l, "gomb") {
				lines = append(lines, l)
			}
		}
		want := "started 3 processes"
		if err == nil || len(lines) != 1 || !strings.Contains(lines[0], want) || !strings.Contains(lines[0], "use "+filepath.Join(binDir, m.bin)) {
			t.Errorf("%s under %s's launcher: %v, gomb lines %q, want one saying %q", other.bin, m.name, err, lines, want)
		}
		if b, err := os.ReadFile(out); err == nil && len(b) > 0 {
			t.Errorf("%s under %s's launcher wrote records:\n%s", other.bin, m.name, b)
		}
	}
}

// TestRanksStartedDifferently: ranks of one job started with other
// arguments (a flag one rank alone has, -help on one rank) or another
// gomb's version end the job with one line from rank 0 naming both
// command lines (exit 2), under both MPIs; before the ranks agreed
// first, one waited in a gather and the other in MPI_Finalize for good.
func TestRanksStartedDifferently(t *testing.T) {
	needLaunch(t)
	older := filepath.Join(t.TempDir(), "gomb-older")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=0.0.9", "-o", older, "../../cmd/gomb")
	build.Env = append(os.Environ(), "CC=mpicc.openmpi")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building a gomb of another version: %v\n%s", err, out)
	}
	for _, c := range []struct {
		m            mpiLib
		bin          string // rank 1's binary ("": the same)
		rank0, rank1 []string
		want         string
	}{
		{mpis[0], "", []string{"fleet", "-by-rank"}, []string{"fleet", "-by-rank", "-bogus"}, " fleet -by-rank -bogus, rank 0 gomb "},
		{mpis[1], "", []string{"fleet", "-by-rank"}, []string{"fleet", "-by-rank", "-bogus"}, " fleet -by-rank -bogus, rank 0 gomb "},
		{mpis[1], "", []string{"imb", "-msglog", "0:1", "PingPong"}, []string{"imb", "-help"}, " imb -help, rank 0 gomb "},
		{mpis[0], older, []string{"osu", "latency", "-m", "1:2"}, []string{"osu", "latency", "-m", "1:2"}, "rank 1 runs gomb 0.0.9 osu latency -m 1:2, rank 0 gomb "},
	} {
		bin := c.bin
		if bin == "" {
			bin = filepath.Join(binDir, c.m.bin)
		}
		args := append(append(append([]string{}, c.rank0...), ":", "-np", "1", bin), c.rank1...)
		j := launchArgv(t, c.m, 1, time.Minute, nil, nil, args...)
		checkUsageError(t, j, c.want)
		if t.Failed() {
			t.Logf("%s: %v", c.m.name, args)
		}
	}
}

// TestIMBIOKeepsOthersFiles: imb-io removes only the files it wrote: a
// user's IMB_out.txt and IMB_outline.csv and the run's own records
// (-json IMB_out.jsonl) stay in -dir; and a -dir that already holds a
// name IMB-IO writes (another imb-io job's file) is refused in one line,
// that file left as it was (both MPIs).
func TestIMBIOKeepsOthersFiles(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			keep := map[string]string{"IMB_out.txt": "notes\n", "IMB_outline.csv": "a,b\n"}
			for n, c := range keep {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rec := filepath.Join(dir, "IMB_out.jsonl")
			j := launchCmd(t, m, 2, 2*time.Minute, nil, "imb-io", "-dir", dir, "-msglog", "2", "-iter", "2", "-json", rec, "P_Write_Indv")
			if j.code != 0 {
				t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
			}
			if len(readRecords(t, rec).results) == 0 {
				t.Errorf("no results kept in %s", rec)
			}
			for n, c := range keep {
				if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != c {
					t.Errorf("%s: %q, %v", n, b, err)
				}
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 3 {
				t.Errorf("left in -dir: %v", entries)
			}

			theirs := filepath.Join(dir, "IMB_out_1")
			if err := os.WriteFile(theirs, []byte("another job's"), 0o644); err != nil {
				t.Fatal(err)
			}
			j = launchCmd(t, m, 2, time.Minute, nil, "imb-io", "-dir", dir, "-msglog", "2", "-iter", "2", "P_Write_Priv")
			if j.code != exitUsage || strings.Count(j.stderr, "gomb imb-io: -dir "+dir+" already holds IMB_out_1") != 1 {
				t.Errorf("exit %d: %s", j.code, tail(j.stderr))
			}
			if b, err := os.ReadFile(theirs); err != nil || string(b) != "another job's" {
				t.Errorf("IMB_out_1: %q, %v", b, err)
			}
		})
	}
}

// TestPipesAsFiles: a pipe given by path (/dev/fd/N as a shell's <(...)
// makes it, a named FIFO) reads as the same log given as a file: import,
// archive add and explain all see its runs.
func TestPipesAsFiles(t *testing.T) {
	log, err := os.ReadFile(testdata("imb_np2_p2p_coll.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // on stdout or stderr
	}{
		{[]string{"import", "/dev/fd/3"}, "gomb import: 1 runs, 213 results"},
		{[]string{"archive", "-archive", filepath.Join(dir, "a.db"), "add", "/dev/fd/3"}, "1 of 1 runs added"},
		{[]string{"explain", "/dev/fd/3"}, "gomb explain: imb, /dev/fd/3"},
		{[]string{"import", fifo}, "gomb import: 1 runs, 213 results"},
	} {
		cmd := exec.Command(filepath.Join(binDir, "gomb"), c.args...)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		var w io.WriteCloser
		if c.args[len(c.args)-1] == fifo {
			go func() { // a writer that opens the FIFO once gomb has
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err == nil {
					f.Write(log)
					f.Close()
				}
			}()
		} else {
			r, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.ExtraFiles, w = []*os.File{r}, pw
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if w != nil {
			cmd.ExtraFiles[0].Close()
			go func() { w.Write(log); w.Close() }()
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || !strings.Contains(so.String()+se.String(), c.want) {
				t.Errorf("%v: %v, want %q in:\n%s%s", c.args, err, c.want, tail(so.String()), se.String())
			}
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Errorf("%v: no end after a minute", c.args)
		}
	}
}

// TestClosedStdout: output to a standard output the caller closed (>&-)
// is lost, so the command fails (exit 1) instead of reporting success; to
// /dev/null it succeeds.
func TestClosedStdout(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	for _, c := range [][]string{
		{"import", testdata("osu5_latency.txt")},
		{"archive", "-archive", db, "list"},
		{"explain", testdata("osu5_latency.txt")},
	} {
		for _, redirect := range []string{">&-", ">/dev/null"} {
			cmd := exec.Command("sh", append([]string{"-c", `exec "$0" "$@" ` + redirect, filepath.Join(binDir, "gomb")}, c...)...)
			var se bytes.Buffer
			cmd.Stderr = &se
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			switch {
			case redirect == ">&-" && (code != exitFailure || !strings.Contains(se.String(), "standard output: it is closed")):
				t.Errorf("%v %s: exit %d (%v)\n%s", c, redirect, code, err, se.String())
			case redirect == ">/dev/null" && code != 0:
				t.Errorf("%v %s: exit %d\n%s", c, redirect, code, se.String())
			}
		}
	}
}

// TestIMBIOFullDisk: on a file system that fills up, imb-io stops with one
// line naming the cause and exit 1, and its records end "failed": never
// rows of bandwidth for bytes that did not reach the file (Open MPI's
// ompio returns success on a short write; gomb reads the status).
func TestIMBIOFullDisk(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("GOMB_REQUIRE_TESTBED") == "1" {
			t.Fatalf("mount a 3 MB tmpfs: %v %s", err, out)
		}
		t.Skipf("mount a 3 MB tmpfs (root needed): %v %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "io.jsonl")
			j := launchCmd(t, m, 2, 2*time.Minute, nil, "imb-io", "-dir", dir, "-msglog", "20:22", "-iter", "4", "-json", rec, "S_Write_indv")
			checkNoCrash(t, j)
			if j.code != exitFailure || !strings.Contains(strings.ToLower(j.stderr), "no space left on device") {
				t.Errorf("exit %d\n%s", j.code, tail(j.stderr))
			}
			st := readRecords(t, rec)
			for _, r := range st.results {
				if r.Bytes >= 1<<20 {
					t.Errorf("a result at %d bytes on a 3 MB file system", r.Bytes)
				}
			}
			if st.end == nil || st.end.Status != result.EndFailed {
				t.Errorf("end record %+v", st.end)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("left on the file system: %v", left)
			}
		})
	}
}
