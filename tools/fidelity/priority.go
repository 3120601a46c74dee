package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// On a machine others use, the kernel shares the cores between sessions
// before it looks at nice values: Linux's autogroups (CONFIG_SCHED_AUTOGROUP,
// on in most distributions' kernels) put each session's processes in a
// scheduling group of its own, and a nice value only weighs a process
// against others of its group. A launch that runs beside other sessions'
// compilers gets a share of its ranks' cores whatever its nice value; its
// ranks are preempted in the middle of timed loops, and peer and gomb
// launches land in slow and fast modes by chance. With -nice, every launch
// starts a session of its own (so an autogroup of its own, which its ranks
// inherit) and that group gets the nice value: the launch then takes its
// cores from the other sessions. Where the kernel has no autogroups the
// launcher's own nice value is set, which the ranks it starts inherit.

// ownSession makes the command start a session of its own.
func ownSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// setNice gives the started launch the nice value n: its autogroup's,
// or the process's where there are no autogroups.
func setNice(pid, n int) error {
	err := os.WriteFile(fmt.Sprintf("/proc/%d/autogroup", pid), []byte(strconv.Itoa(n)), 0)
	if errors.Is(err, fs.ErrNotExist) {
		err = syscall.Setpriority(syscall.PRIO_PROCESS, pid, n)
	}
	if err != nil {
		return fmt.Errorf("-nice %d: %w (a negative value needs root or CAP_SYS_NICE)", n, err)
	}
	return nil
}
