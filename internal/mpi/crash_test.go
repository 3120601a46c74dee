//go:build cgo

package mpi

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// crashEnv makes a test binary a child that guards and then crashes
// (TestCrashGuard).
const crashEnv = "GOMB_TEST_CRASH"

// TestCrashGuard: with the guard in place, a fault inside a library (here
// libc's strlen, as InjectCrash makes it) ends the process with gomb's
// line first, no goroutine dump, and exit status 1 (where a library
// installed a handler before Go's, as MPICH's UCX does, that handler's
// backtrace follows and ends the process); a fault in Go's own code still
// reaches Go's handler and is the panic Go makes of it; GOTRACEBACK set
// leaves every fault to Go (and the handlers before it).
func TestCrashGuard(t *testing.T) {
	if os.Getenv(crashEnv) == "1" {
		GuardCrashes()
		InjectCrash()
		t.Fatal("InjectCrash returned")
	}
	GuardCrashes()
	GuardCrashes() // a second call changes nothing
	for i := range 3 {
		if !goFaultPanics() {
			t.Fatalf("try %d: a nil pointer in Go code did not panic under the guard", i)
		}
	}

	line := regexp.MustCompile(`^gomb: a library crashed this process outside gomb's code with a segmentation fault \(code address 0x[0-9a-f]+, data address 0x8\) on \S+, pid \d+: what the MPI library printed says why$`)
	for _, c := range []struct {
		name, traceback string
		gombs           bool
	}{{"guarded", "", true}, {"GOTRACEBACK set", "single", false}} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestCrashGuard$")
			cmd.Env = append(os.Environ(), crashEnv+"=1", "GOTRACEBACK="+c.traceback)
			var so, se strings.Builder
			cmd.Stdout, cmd.Stderr = &so, &se
			start := time.Now()
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			lines := strings.Split(strings.TrimSpace(se.String()), "\n")
			ucx := strings.Contains(se.String(), "Caught signal 11")
			if c.gombs {
				if (code != 1 && !ucx) || code == 0 || !line.MatchString(lines[0]) || so.Len() != 0 ||
					(!ucx && len(lines) != 1) || strings.Contains(se.String(), "goroutine ") {
					t.Errorf("exit %d (%v) after %v, want 1 and gomb's line first; stdout %q stderr:\n%s", code, err, time.Since(start), so.String(), se.String())
				}
				return
			}
			if code == 0 || strings.Contains(se.String(), "gomb:") || !(ucx || strings.Contains(se.String(), "signal arrived during cgo execution")) {
				t.Errorf("exit %d, want Go's own crash (or UCX's) with GOTRACEBACK set; stderr:\n%s", code, se.String())
			}
		})
	}
}

// goFaultPanics reads through a nil pointer in Go code and reports
// whether Go turned the fault into a panic that recover sees.
func goFaultPanics() (panicked bool) {
	defer func() { panicked = recover() != nil }()
	var p *[64]int
	sink = p[7]
	return false
}

var sink int
