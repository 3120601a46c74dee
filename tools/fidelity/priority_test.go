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
// scheduling group of its own, and setNice gives that group (or, without
// autogroups, the process) the nice value; a child it starts afterwards
// is in the same group.
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
	for _, pid := range []int{cmd.Process.Pid, child} {
		group, err := os.ReadFile(fmt.Sprintf("/proc/%d/autogroup", pid))
		switch {
		case err == nil:
			if !strings.HasSuffix(strings.TrimSpace(string(group)), "nice 7") {
				t.Errorf("pid %d: autogroup %q, want nice 7", pid, group)
			}
			mine, _ := os.ReadFile("/proc/self/autogroup")
			if strings.Fields(string(group))[0] == strings.Fields(string(mine))[0] {
				t.Errorf("pid %d shares this test's autogroup %q", pid, group)
			}
		case pid == cmd.Process.Pid:
			if n, err := syscall.Getpriority(syscall.PRIO_PROCESS, pid); err != nil || 20-n != 7 {
				t.Errorf("pid %d: priority %d (%v), want nice 7", pid, 20-n, err)
			}
		}
	}
}
