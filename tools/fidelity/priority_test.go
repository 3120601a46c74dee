package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestSetNice: a launch started in a session of its own is in a
// scheduling group of its own, and setNice gives that group (where the
// kernel has autogroups) and the launcher process the nice value; a child
// it starts afterwards is in the same group.
func TestSetNice(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sh", "-c", "sleep 0.5 & echo $!; wait")
	ownSession(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	if err := setNice(cmd.Process.Pid, 7); err != nil {
		t.Fatal(err)
	}
	var child int
	fmt.Fscan(out, &child)
	if n, err := syscall.Getpriority(syscall.PRIO_PROCESS, cmd.Process.Pid); err != nil || 20-n != 7 {
		t.Errorf("launcher: priority %d (%v), want nice 7", 20-n, err)
	}
	// the autogroup, where the kernel schedules this session by one: empty
	// where the session sits in a cgroup of its own (CI's container)
	mine, err := os.ReadFile("/proc/self/autogroup")
	if err != nil || len(strings.Fields(string(mine))) == 0 {
		return
	}
	for _, pid := range []int{cmd.Process.Pid, child} {
		group, err := os.ReadFile(fmt.Sprintf("/proc/%d/autogroup", pid))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(strings.TrimSpace(string(group)), "nice 7") {
			t.Errorf("pid %d: autogroup %q, want nice 7", pid, group)
		}
		if g := strings.Fields(string(group)); len(g) > 0 && g[0] == strings.Fields(string(mine))[0] {
			t.Errorf("pid %d shares this test's autogroup %q", pid, group)
		}
	}
}
