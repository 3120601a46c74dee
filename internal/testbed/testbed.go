// Package testbed drives scripts/testbed.sh from Go tests: emulated hosts in
// network namespaces, gomb launched across them with Open MPI or MPICH,
// links shaped, cut and flapped, ranks killed. Each Bed has its own
// namespace prefix and work directory and is torn down when its test ends.
//
// A Bed needs root, ip netns, tc, iptables and gcc. Where they are missing
// Start skips the test, unless GOMB_REQUIRE_TESTBED=1 (the project's test
// script sets it), which makes a missing piece a failure.
package testbed

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Bed is a running testbed.
type Bed struct {
	Prefix string // namespace prefix: hosts are Prefix+"h1"...
	Racks  int    // racks of hosts (1: one bridge)
	dir    string // testbed.sh's work directory
	script string
	env    []string // testbed.sh's settings: prefix and work directory
}

// scriptPath is the path of scripts/testbed.sh in this source tree.
func scriptPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "scripts", "testbed.sh")
}

// Start brings up n hosts; teardown is registered with t.Cleanup.
//
// The prefix (letters and a dash: "gtbf-") gets the test process's PID
// ("gtbf4711-"): two test runs on one machine (two clones, CI beside a
// developer) never share namespaces. testbed.sh up takes down a bed of
// its own prefix first, and with one prefix for every run that removed a
// concurrent run's hosts in the middle of its test. Beds whose test
// process is gone (a killed run leaves them) are taken down first.
func Start(t testing.TB, n int, prefix string) *Bed { return StartRacks(t, n, 1, prefix) }

// StartRacks is Start with the hosts in racks (testbed.sh up N RACKS): a
// bridge a rack, each on a core bridge by an uplink that shape-uplink
// can make thin.
func StartRacks(t testing.TB, n, racks int, prefix string) *Bed {
	t.Helper()
	return StartNICs(t, n, racks, 1, prefix)
}

// StartNICs is StartRacks with nics (1 or 2) NICs a host: the second,
// eth1, on a bridge of its own (testbed.sh up N RACKS NICS).
func StartNICs(t testing.TB, n, racks, nics int, prefix string) *Bed {
	t.Helper()
	if testing.Short() {
		t.Skip("emulated hosts: in the whole suite, not in -short's tier")
	}
	requireOrSkip(t, "GOMB_REQUIRE_TESTBED", "testbed", missing())
	sweep(t)
	prefix = strings.TrimSuffix(prefix, "-") + strconv.Itoa(os.Getpid()) + "-"
	dir := filepath.Join(os.TempDir(), prefix+"testbed")
	b := &Bed{Prefix: prefix, Racks: racks, dir: dir, script: scriptPath(),
		env: append(os.Environ(), "GOMB_TESTBED_PREFIX="+prefix, "GOMB_TESTBED_DIR="+dir)}
	t.Cleanup(func() {
		if out, err := b.sh(60*time.Second, "down"); err != nil {
			t.Errorf("testbed down: %v\n%s", err, out)
		}
	})
	b.Must(t, "up", strconv.Itoa(n), strconv.Itoa(racks), strconv.Itoa(nics))
	return b
}

// requireOrSkip skips the test when why says what is missing, or fails it
// when the environment variable require is 1 (the test script's: the
// suite must run everything).
func requireOrSkip(t testing.TB, require, what, why string) {
	t.Helper()
	if why == "" {
		return
	}
	if os.Getenv(require) == "1" {
		t.Fatalf("%s required (%s=1), but %s", what, require, why)
	}
	t.Skipf("no %s: %s", what, why)
}

// owned matches the namespaces of a bed Start made: letters, the test
// process's PID, a dash, then sw or hN.
var owned = regexp.MustCompile(`^(gtb[a-z]*)([0-9]+)-(sw|h[0-9]+)$`)

// sweep takes down the beds of test processes that no longer run.
func sweep(t testing.TB) {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	stale := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		m := owned.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		if _, err := os.Stat("/proc/" + m[2]); os.IsNotExist(err) {
			stale[m[1]+m[2]+"-"] = true
		}
	}
	for p := range stale {
		b := &Bed{Prefix: p, script: scriptPath(),
			env: append(os.Environ(), "GOMB_TESTBED_PREFIX="+p, "GOMB_TESTBED_DIR="+filepath.Join(os.TempDir(), p+"testbed"))}
		if out, err := b.sh(60*time.Second, "down"); err != nil {
			t.Logf("a stale testbed %s: down failed: %v\n%s", p, err, out)
		} else {
			t.Logf("took down the stale testbed %s (its test process is gone)", p)
		}
	}
}

// missing says what the testbed lacks here ("" when nothing).
func missing() string {
	if os.Geteuid() != 0 {
		return "not root"
	}
	for _, c := range []string{"ip", "tc", "iptables", "gcc", "unshare"} {
		if _, err := exec.LookPath(c); err != nil {
			return c + " is not installed"
		}
	}
	if err := exec.Command("ip", "netns", "list").Run(); err != nil {
		return "ip netns does not work: " + err.Error()
	}
	return ""
}

// Host is the name of host i (1-based).
func (b *Bed) Host(i int) string { return fmt.Sprintf("%sh%d", b.Prefix, i) }

// sh runs one testbed.sh subcommand with a time limit.
func (b *Bed) sh(limit time.Duration, args ...string) (string, error) {
	cmd := exec.Command(b.script, args...)
	cmd.Env = b.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(limit):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return out.String(), fmt.Errorf("testbed.sh %s: no answer within %v", strings.Join(args, " "), limit)
	}
}

// Must runs a testbed.sh subcommand and fails the test if it fails.
func (b *Bed) Must(t testing.TB, args ...string) string {
	t.Helper()
	out, err := b.sh(60*time.Second, args...)
	if err != nil {
		t.Fatalf("testbed.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Launch returns (not started) the launcher of a job: mpi is "ompi" or
// "mpich", hosts e.g. "h1,h2" or "h1:2,h2:2" with the prefix, bin the gomb
// binary to run. The command's PID is the launcher's own (mpirun runs
// inside host 1 through exec), so signals sent to it reach the launcher.
func (b *Bed) Launch(mpi, hosts string, np int, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(b.script, append([]string{"run", mpi, hosts, strconv.Itoa(np), "--"}, args...)...)
	cmd.Env = append(append([]string{}, b.env...), "GOMB_BIN="+bin, "GOMB_MPICH_BIN="+bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Dir is the testbed's work directory (its rsh and nsrun helpers).
func (b *Bed) Dir() string { return b.dir }

// Command returns (not started) a command run on an emulated host (its
// network namespace, its host name), as testbed.sh exec runs it.
func (b *Bed) Command(host string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(b.dir, "nsrun"), append([]string{host}, args...)...)
	cmd.Env = append([]string{}, b.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Pids lists every process left in the testbed's namespaces.
func (b *Bed) Pids(t testing.TB) []int {
	t.Helper()
	var pids []int
	for _, f := range strings.Fields(b.Must(t, "pids")) {
		if p, err := strconv.Atoi(f); err == nil {
			pids = append(pids, p)
		}
	}
	return pids
}

// WaitEmpty waits up to limit for the namespaces to hold no process and
// returns what is left then, as "pid:command".
func (b *Bed) WaitEmpty(t testing.TB, limit time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var left []string
		for _, p := range b.Pids(t) {
			comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p))
			if err == nil {
				left = append(left, fmt.Sprintf("%d:%s", p, strings.TrimSpace(string(comm))))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(200 * time.Millisecond)
	}
}
