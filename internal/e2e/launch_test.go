package e2e

// Helpers for the tests that run real MPI jobs: both binaries are built
// once, every job runs under a timeout on loopback, and every process a job
// started is gone before the next job begins.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// binDir holds the gomb binaries built for the tests.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gomb-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	// Each binary is built as a site builds it: cgo compiling and linking
	// through the MPI's own compiler wrapper, no pkg-config, no build tag.
	for _, b := range []struct{ out, cc string }{{"gomb", "mpicc.openmpi"}, {"gomb-mpich", "mpicc.mpich"}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b.out), "../../cmd/gomb")
		cmd.Env = append(os.Environ(), "CC="+b.cc, "CGO_ENABLED=1", "PKG_CONFIG=/bin/false")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", b.out, "with", b.cc, err)
			os.Exit(1)
		}
	}
	os.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	os.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// mpiLib is one MPI library and how to launch gomb with it on loopback.
type mpiLib struct {
	name string
	bin  string
	argv func(np int) []string
}

// command is argv (the program and its arguments, after any launcher
// flags of the test's own) under m's launcher with np ranks, in the
// environment of m's test jobs (testutil.Env).
func (m mpiLib) command(t testing.TB, ctx context.Context, np int, argv ...string) *exec.Cmd {
	full := append(m.argv(np), argv...)
	cmd := exec.CommandContext(ctx, full[0], full[1:]...)
	cmd.Env = append(os.Environ(), testutil.Env(m.name, t.TempDir())...)
	return cmd
}

var mpis = []mpiLib{
	{"openmpi", "gomb", func(np int) []string { return testutil.Launch("openmpi", np) }},
	{"mpich", "gomb-mpich", func(np int) []string { return testutil.Launch("mpich", np) }},
}

// job is a finished MPI job.
type job struct {
	stdout, stderr string
	code           int
	took           time.Duration
	timedOut       bool
}

// launch runs 'gomb imb' under the library's launcher with np ranks. extraEnv
// entries are KEY=VALUE.
func launch(t *testing.T, m mpiLib, np int, timeout time.Duration, extraEnv []string, args ...string) job {
	t.Helper()
	return launchCmd(t, m, np, timeout, extraEnv, "imb", args...)
}

// launchCmd runs 'gomb <sub>' under the library's launcher with np ranks.
func launchCmd(t testing.TB, m mpiLib, np int, timeout time.Duration, extraEnv []string, sub string, args ...string) job {
	t.Helper()
	return launchArgv(t, m, np, timeout, extraEnv, nil, append([]string{sub}, args...)...)
}

// shortTier are the tests that launch MPI jobs and that `go test -short`
// keeps: each runs one job a suite and MPI at 2 ranks under -short
// (testutil.ShortRanks); the others skip.
var shortTier = map[string]bool{
	"TestConformance": true, "TestOSUConformance": true, "TestP2PConformance": true,
	"TestMTConformance": true, "TestRingCount": true, "TestWrapperBuild": true,
}

// needLaunch skips t under -short unless it belongs to the short tier.
func needLaunch(t testing.TB) {
	t.Helper()
	if testing.Short() && !shortTier[strings.SplitN(t.Name(), "/", 2)[0]] {
		t.Skip("launches MPI jobs: in the whole suite, not in -short's tier")
	}
}

// launchArgv runs gomb with launcher flags lflags (after the launcher's own).
func launchArgv(t testing.TB, m mpiLib, np int, timeout time.Duration, extraEnv, lflags []string, args ...string) job {
	t.Helper()
	needLaunch(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := m.command(t, ctx, np, append(append(slices.Clone(lflags), filepath.Join(binDir, m.bin)), args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Env = append(cmd.Env, extraEnv...)
	if len(args) > 0 && args[0] == "imb-io" {
		cmd.Dir = t.TempDir() // its files, and the directory it makes for them
		defer func() {
			// gone after the run, whatever its end
			if left, _ := os.ReadDir(cmd.Dir); len(left) > 0 {
				t.Errorf("gomb imb-io left %s in its working directory", left[0].Name())
			}
		}()
	}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	err := cmd.Run()
	j := job{stdout: so.String(), stderr: se.String(), took: time.Since(start), timedOut: ctx.Err() != nil}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		j.code = ee.ExitCode()
	default:
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	waitGone(t)
	if j.timedOut {
		t.Fatalf("%s %v: no exit within %v\nstdout:\n%s\nstderr:\n%s", m.name, args, timeout, tail(j.stdout), tail(j.stderr))
	}
	if launcherFailed(j) && !retried(t) {
		t.Logf("%s's launcher ended the job before gomb said a word (exit %d after %v); once more. Its stderr:\n%s",
			m.name, j.code, j.took.Round(time.Millisecond), tail(j.stderr))
		return launchArgv(t, m, np, timeout, extraEnv, lflags, args...)
	}
	return j
}

// launcherFailed reports a job the launcher ended before any rank spoke:
// a non-zero exit within a second, nothing on stdout, no gomb line and no
// crash on stderr. Open MPI 4.1's mpirun did so when it lost the race
// with another to create the session directory ("A call to mkdir was
// unable to create the desired directory: /tmp/ompi.HOST.0, File
// exists"; parallel tests, twice in busy clean-clone runs), which each
// launch's own directory now avoids (testutil.Env); the relaunch stays
// for a launcher's other silent failures, and is logged. Every gomb
// refusal and failure prints a line, so a job of gomb's own fails twice.
func launcherFailed(j job) bool {
	if j.code == 0 || j.took > time.Second || strings.TrimSpace(j.stdout) != "" {
		return false
	}
	for _, l := range strings.Split(j.stderr, "\n") {
		if strings.HasPrefix(l, "gomb") || slices.ContainsFunc(crashMarks, func(m string) bool { return strings.Contains(l, m) }) {
			return false
		}
	}
	return true
}

// relaunched holds the tests that launched a job once more after
// launcherFailed: one retry a test, so a launcher that always fails fast
// still fails it.
var relaunched sync.Map

func retried(t testing.TB) bool {
	_, done := relaunched.LoadOrStore(t.Name(), true)
	return done
}

// waitGone waits until no process runs a binary from binDir: ranks may
// outlive the launcher by a moment, and the next job must start clean.
func waitGone(t testing.TB) {
	t.Helper()
	waitGoneOf(t, "")
}

// waitGoneOf waits until no process runs binDir/bin (any binary of
// binDir for "").
func waitGoneOf(t testing.TB, bin string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := ourProcesses(bin)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ourProcesses lists the PIDs whose executable is binDir/bin (lives in
// binDir, for "").
func ourProcesses(bin string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, binDir+"/") && (bin == "" || exe == filepath.Join(binDir, bin)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitLines waits until a started job's record file has n lines (the run
// record and some results), so that a fault or signal lands mid-run. If
// the job ends first or a minute passes, it kills the job and fails; out
// is the job's captured output, for the message.
func waitLines(t *testing.T, cmd *exec.Cmd, path string, n int, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.Count(b, []byte("\n")) >= n {
			return
		}
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)); err != nil || strings.Contains(string(st), ") Z ") {
			break // the launcher has ended
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	t.Fatalf("no results: %s", tail(out.String()))
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// records reads a record file: the run, the results, the end (nil if
// missing) and every syntax error.
type stream struct {
	run     *result.Run
	results []*result.Result
	end     *result.End
	bad     []error
	cut     *result.SyntaxError // a last record cut short by a kill
}

func readRecords(t testing.TB, path string) stream {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s stream
	d := result.NewDecoder(f, path)
	for d.Scan() {
		switch r := d.Record().(type) {
		case *result.Run:
			s.run = r
		case *result.Result:
			s.results = append(s.results, r)
		case *result.End:
			s.end = r
		case *result.SyntaxError:
			if errors.Is(r, result.ErrCutShort) {
				s.cut = r
				continue
			}
			s.bad = append(s.bad, r)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

// runRecord reads the run record alone, the first line of a file a job
// is still writing. readRecords would read on to the end of the file, and
// a decoder reading a running job's file chases its results: under load a
// reader that decodes them (longRun's are 2.8 MB of samples each) more
// slowly than the job writes them reaches the end only when the job has.
func runRecord(t testing.TB, path string) *result.Run {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s: the run record: %v", path, err)
	}
	d := result.NewDecoder(bytes.NewReader(line), path)
	if d.Scan() {
		if r, ok := d.Record().(*result.Run); ok {
			return r
		}
	}
	t.Fatalf("%s: the first line is no run record: %.200s", path, line)
	return nil
}

// checkNoCrash fails on Go panics or stack traces in a job's output.
// crashMarks are what a Go crash prints: checkNoCrash fails on any, and
// launcherFailed never takes a job that shows one for the launcher's.
var crashMarks = []string{"panic:", "goroutine ", "SIGSEGV", "runtime error"}

func checkNoCrash(t *testing.T, j job) {
	t.Helper()
	out := j.stdout + j.stderr
	for _, bad := range crashMarks {
		if i := strings.Index(out, bad); i >= 0 {
			// from just before the first marker: a crash's head (what
			// faulted, where) is what a tail of its goroutine dump loses
			from := max(0, strings.LastIndex(out[:i], "\n")-500)
			t.Errorf("output contains %q:\n%s", bad, out[from:min(len(out), i+4000)])
		}
	}
}

// checkUsageError: a bad input ends with exit 2 and exactly one line from
// gomb on stderr, mentioning want.
func checkUsageError(t *testing.T, j job, want string) {
	t.Helper()
	checkNoCrash(t, j)
	var ours []string
	for _, l := range strings.Split(j.stderr, "\n") {
		if strings.HasPrefix(l, "gomb") {
			ours = append(ours, l)
		}
	}
	if j.code != exitUsage || len(ours) != 1 || !strings.Contains(ours[0], want) {
		t.Errorf("exit %d (want %d) after %v, gomb lines %q, want one mentioning %q\nstderr:\n%s",
			j.code, exitUsage, j.took.Round(time.Millisecond), ours, want, tail(j.stderr))
	}
}

var numCol = regexp.MustCompile(`^ *-?[0-9]+(\.[0-9]+)?$`)

// imbCall finds the program in a calling sequence line: gomb's subcommand
// (" imb ", " imb-nbc ", " imb-mpi4 ") or IMB's program ("# IMB-MPI1 ", ...).
var imbCall = regexp.MustCompile(`( imb(-nbc|-mpi4|-ext|-rma|-p2p|-io)? |^# IMB-(MPI1|NBC|MPI4|EXT|RMA|P2P|IO) )`)

// maskIMB turns IMB-layout text into its structure: values of table
// columns become N (each column still exactly 13 characters wide), and the
// lines that name the tool, the date, the kernel, the MPI version or the
// binary are reduced to their labels.
func maskIMB(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "#    "):
			l = "#    <tool>"
		case strings.HasPrefix(l, "# performance of "): // IMB-IO's exploit's MFlops
			l = "# performance of N MFlops"
		case strings.HasPrefix(l, "# Date ") || strings.HasPrefix(l, "# Release ") ||
			strings.HasPrefix(l, "# Version ") || strings.HasPrefix(l, "# MPI Version "):
			l = l[:strings.Index(l, ":")+1]
		case strings.HasPrefix(l, "# ") && imbCall.MatchString(l):
			// calling sequence: keep the arguments after the program
			l = "# <prog>" + l[imbCall.FindStringIndex(l)[1]-1:]
		case l != "" && !strings.HasPrefix(l, "#") && !strings.Contains(l, "[usec]") && !strings.Contains(l, "#bytes"):
			var b strings.Builder
			rest := l
			for len(rest) >= 13 && numCol.MatchString(rest[:13]) {
				b.WriteString(strings.Repeat(" ", 12) + "N")
				rest = rest[13:]
			}
			l = b.String() + rest
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestLauncherFailed: a job is launched once more only when the launcher
// failed fast and silently as far as gomb goes.
func TestLauncherFailed(t *testing.T) {
	fast, slow := 100*time.Millisecond, 3*time.Second
	for _, c := range []struct {
		name string
		j    job
		want bool
	}{
		{"mpirun's own error", job{code: 1, took: fast, stderr: "--------\nmpirun was unable to launch\n"}, true},
		{"silent", job{code: 1, took: fast}, true},
		{"a gomb refusal", job{code: 2, took: fast, stderr: "gomb imb: unknown benchmark \"PingPang\"\n"}, false},
		{"a crash", job{code: 2, took: fast, stderr: "panic: runtime error\n"}, false},
		{"a table first", job{code: 1, took: fast, stdout: "#bytes\n"}, false},
		{"slow", job{code: 1, took: slow}, false},
		{"fine", job{took: fast}, false},
	} {
		if got := launcherFailed(c.j); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
