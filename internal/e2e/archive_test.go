package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/importer"
)

// gombCmd runs the built gomb binary (no launcher) and returns what it
// printed and its exit status.
func gombCmd(t *testing.T, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return gombCmdIn(t, "", env, stdin, args...)
}

// gombCmdIn is gombCmd in the directory dir ("": this one).
func gombCmdIn(t *testing.T, dir string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "gomb"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return so.String(), se.String(), code
}

func testdata(name string) string { return filepath.Join("..", "..", "importer", "testdata", name) }

// TestImportCommand: records on stdout, problems as FILE:LINE on stderr,
// one line and status 2 for a file in no known format.
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "notes.txt")
	os.WriteFile(junk, []byte("shopping list\nmilk\n"), 0o644)
	out := filepath.Join(dir, "out.jsonl")
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout []string // substrings
		stderr []string // lines, exactly, in order
	}{
		{"one log", []string{"import", testdata("osu5_latency.txt")}, "", 0,
			[]string{`"benchmark":"latency"`, `"version":"5.6.3"`}, []string{"gomb import: 1 runs, 24 results"}},
		{"malformed line", []string{"import", "-system", "old", testdata("imb2018_np3_slurm.txt")}, "", 0,
			[]string{`"labels":{"system":"old"}`},
			[]string{testdata("imb2018_np3_slurm.txt") + `:63: Allreduce: t_min[usec] "2.7x" is not a number ≥ 0 (skipped)`,
				"gomb import: 1 runs, 11 results"}},
		{"stdin", []string{"import", "-np", "2", "-locality", "inter-node", "-"}, "# OSU MPI Bandwidth Test v5.9\n# Size      Bandwidth (MB/s)\n1    3.21\n", 0,
			[]string{`"mbytes_per_sec":3.21`, `"locality":"inter-node"`, `"np":2`}, []string{"gomb import: 1 runs, 1 results"}},
		{"unknown format", []string{"import", junk}, "", exitUsage, nil,
			[]string{"gomb: " + junk + ": not an IMB-MPI1 log, OSU output, mpi-comm-bench output or gomb record file (no IMB or OSU table, ring sample or gomb record anywhere in its 19 bytes)",
				"gomb import: 0 runs, 0 results"}},
		{"missing file", []string{"import", filepath.Join(dir, "nope.log")}, "", exitFailure, nil,
			[]string{"gomb: open " + filepath.Join(dir, "nope.log") + ": no such file or directory", "gomb import: 0 runs, 0 results"}},
		{"good and bad", []string{"import", "-o", out, junk, testdata("osu6_allreduce_np4.txt")}, "", exitUsage, nil,
			[]string{"gomb: " + junk + ": not an IMB-MPI1 log, OSU output, mpi-comm-bench output or gomb record file (no IMB or OSU table, ring sample or gomb record anywhere in its 19 bytes)",
				"gomb import: 1 runs, 5 results"}},
		{"no file", []string{"import"}, "", exitUsage, nil, []string{"gomb: import: no file given ('gomb import -help')"}},
		{"bad label", []string{"import", "-label", "x", testdata("osu5_latency.txt")}, "", exitUsage, nil,
			[]string{`gomb: import: invalid value "x" for flag -label: want KEY=VALUE, got "x"`}},
		{"bad locality", []string{"import", "-locality", "far", "x"}, "", exitUsage, nil,
			[]string{`gomb: import: invalid value "far" for flag -locality: want intra-node or inter-node, got "far"`}},
		{"help", []string{"import", "-help"}, "", 0, []string{"Usage: gomb import", "Examples:"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			so, se, code := gombCmd(t, nil, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, se)
			}
			for _, s := range c.stdout {
				if !strings.Contains(so, s) {
					t.Errorf("stdout lacks %s:\n%.2000s", s, so)
				}
			}
			if got := strings.Split(strings.TrimSpace(se), "\n"); c.stderr != nil && strings.Join(got, "\n") != strings.Join(c.stderr, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", se, strings.Join(c.stderr, "\n"))
			}
		})
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte(`"benchmark":"allreduce"`)) {
		t.Errorf("-o file: %v %.200s", err, b)
	}
}

// TestArchiveCommands walks the archive commands through one archive, the
// default one picked by $GOMB_ARCHIVE.
func TestArchiveCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "arch", "gomb.db")
	env := []string{"GOMB_ARCHIVE=" + db}
	step := func(code int, args ...string) (string, string) {
		t.Helper()
		so, se, c := gombCmd(t, env, "", args...)
		if c != code {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, c, code, so, se)
		}
		return so, se
	}
	so, se := step(0, "archive", "add", "-system", "hpc4", "-config", "base", testdata("imb2019_np2_twice.txt"),
		testdata("osu5_latency.txt"), testdata("gomb_records_osu_bw_np2.jsonl"))
	if strings.Count(so, "added run") != 4 || !strings.Contains(se, "4 of 4 runs added to "+db) {
		t.Fatalf("add:\n%s%s", so, se)
	}
	so, se = step(0, "archive", "add", "-archive", db, testdata("imb2019_np2_twice.txt"))
	if !strings.Contains(so, "already archived as run 1") || !strings.Contains(se, "0 of 2 runs added") {
		t.Errorf("second add:\n%s%s", so, se)
	}
	// other labels on the same runs: the message names them as the copy's
	so, _ = step(0, "archive", "add", "-system", "B", testdata("imb2019_np2_twice.txt"))
	if !strings.Contains(so, "already archived as run 1, not added again (this copy: 2020-08-30 18:36 system=B;") {
		t.Errorf("add under other labels:\n%s", so)
	}
	so, _ = step(0, "archive", "list", "system=hpc4", "suite=imb")
	lines := strings.Split(strings.TrimSpace(so), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "2020-08-30 18:36:31") ||
		!strings.Contains(lines[1], "inter-node") || !strings.Contains(lines[1], "Intel MPI") {
		t.Errorf("list:\n%s", so)
	}
	so, _ = step(0, "archive", "show", "2")
	for _, want := range []string{"run 2 (", "label system=hpc4", "log launch: mpirun -np 2 -hosts cn01,cn02 -ppn 1",
		"Sendrecv", "1790.65", "1171.08"} {
		if !strings.Contains(so, want) {
			t.Errorf("show lacks %q:\n%s", want, so)
		}
	}
	// -text: the run again in its suite's layout, which imports back to
	// the same rows (runs 2: IMB log; 4: gomb's OSU records).
	for _, c := range []struct{ id, want string }{{"2", "# Benchmarking Sendrecv"}, {"4", "# OSU MPI Bandwidth Test v7.2"}} {
		so, _ = step(0, "archive", "show", "-text", c.id)
		f, err := importer.Import([]byte(so), "show-text", importer.Options{})
		if err != nil || len(f.Problems) > 0 || len(f.Runs) != 1 || !strings.Contains(so, c.want) {
			t.Errorf("show -text %s: %v %v\n%s", c.id, err, f, so)
			continue
		}
		exp, _ := step(0, "archive", "export", c.id)
		if got, want := len(f.Runs[0].Results), strings.Count(exp, `"type":"result"`); got != want || got == 0 {
			t.Errorf("show -text %s: %d rows read back, the run has %d", c.id, got, want)
		}
	}
	so, _ = step(0, "archive", "history", "-b", "sendrecv", "-bytes", "1048576", "-metric", "mbytes_per_sec")
	if !strings.Contains(so, "# sendrecv, 1048576 bytes, mbytes_per_sec") || !strings.Contains(so, "1.191e+04") || !strings.Contains(so, "1171") {
		t.Errorf("history:\n%s", so)
	}
	exp := filepath.Join(dir, "x.jsonl")
	step(0, "archive", "export", "-o", exp, "suite=osu")
	so, se = step(0, "import", exp)
	if !strings.Contains(se, "2 runs, 29 results") || !strings.Contains(so, `"samples_us":[[`) {
		t.Errorf("export then import: %s", se)
	}
	so, _ = step(0, "archive", "rm", "3")
	if !strings.Contains(so, "removed 1 runs") {
		t.Errorf("rm: %s", so)
	}
	so, _ = step(0, "archive", "check")
	if !strings.HasPrefix(so, "ok: "+db+", schema ") {
		t.Errorf("check: %s", so)
	}
	// Errors: one line, status 2.
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, bytes.Repeat([]byte("x"), 5000), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"archive"}, "gomb: archive: no command ('gomb archive -help' lists them)"},
		{[]string{"archive", "frobnicate"}, `gomb: archive: unknown command "frobnicate" ('gomb archive -help' lists them)`},
		{[]string{"archive", "show", "99"}, "gomb: archive show: no run 99"},
		{[]string{"archive", "rm", "x"}, `gomb: archive: "x" is not a run id`},
		{[]string{"archive", "list", "np=many"}, `gomb: archive: selection "np=many": np wants a number`},
		{[]string{"archive", "history", "-b", "PingPong"}, "gomb: archive history: give -b BENCHMARK and -bytes SIZE"},
		{[]string{"archive", "history", "-b", "PingPong", "-bytes", "8", "-metric", "speed"},
			`gomb: archive history: unknown metric "speed" (t_avg_us, t_min_us, t_max_us, mbytes_per_sec)`},
		{[]string{"archive", "-archive", junk, "list"}, "gomb: archive " + junk + ": not an SQLite archive: file is not a database"},
		{[]string{"archive", "add"}, "gomb: archive add: no file given"},
	} {
		_, se, code := gombCmd(t, env, "", c.args...)
		if code != exitUsage || strings.TrimSpace(se) != c.want {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, se, c.want)
		}
	}
}

// TestArchiveAddIncomplete: records without their end record are stored
// with a note that they are incomplete; the complete records replace
// them.
func TestArchiveAddIncomplete(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	full, err := os.ReadFile(testdata("gomb_records_osu_bw_np2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(full)), "\n")
	part := filepath.Join(dir, "part.jsonl")
	if err := os.WriteFile(part, []byte(strings.Join(lines[:4], "")), 0o644); err != nil { // run record and 3 results
		t.Fatal(err)
	}
	so, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "add", part)
	if code != 0 || !strings.Contains(so, "3 results") || !strings.Contains(so, "incomplete: no end record") {
		t.Fatalf("partial add: exit %d\n%s%s", code, so, se)
	}
	so, se, code = gombCmd(t, nil, "", "archive", "-archive", db, "add", testdata("gomb_records_osu_bw_np2.jsonl"))
	if code != 0 || !strings.Contains(so, "in place of the same run added before without its end") {
		t.Fatalf("complete add: exit %d\n%s%s", code, so, se)
	}
	so, _, _ = gombCmd(t, nil, "", "archive", "-archive", db, "list")
	if n := strings.Count(so, "\n") - 1; n != 1 || !strings.Contains(so, fmt.Sprintf(" %d ", len(lines)-2)) {
		t.Errorf("after the complete add:\n%s", so)
	}
}

// TestArchiveAddDiskFull: runs that could not be committed (the file
// size limit stands in for a full disk) are not reported as added, and
// the archive holds what was reported.
func TestArchiveAddDiskFull(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatal("prlimit (util-linux) is needed")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "check"); code != 0 {
		t.Fatal(se)
	}
	one, err := os.ReadFile(testdata("imb_np2_p2p_coll.txt"))
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.log")
	if err := os.WriteFile(big, bytes.Repeat(one, 300), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(prlimit, "--fsize=300000", filepath.Join(binDir, "gomb"), "archive", "-archive", db, "add", big)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Run(); err == nil || !strings.Contains(se.String(), "file too large") {
		t.Fatalf("add past the limit: %v\n%s", err, se.String())
	}
	said := strings.Count(so.String(), "added run ")
	if !strings.Contains(se.String(), fmt.Sprintf("gomb archive: %d of ", said)) {
		t.Errorf("%d runs said added, summary: %s", said, se.String())
	}
	list, _, _ := gombCmd(t, nil, "", "archive", "-archive", db, "list")
	if n := strings.Count(list, "\n") - 1; n != said {
		t.Errorf("%d runs said added, %d stored", said, n)
	}
	if out, se, code := gombCmd(t, nil, "", "archive", "-archive", db, "check"); code != 0 {
		t.Errorf("archive check: %s%s", out, se)
	}
}
