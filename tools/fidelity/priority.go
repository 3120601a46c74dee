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
// cores from the other sessions. The launcher's own nice value is set too,
// which the ranks it starts inherit: it is what counts where the kernel
// has no autogroups, or where the session sits in a cgroup of its own (a
// container), whose tasks the autogroups do not schedule (their
// /proc/PID/autogroup reads empty).

// ownSession makes the command start a session of its own.
func ownSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// setNice gives the started launch the nice value n: its autogroup's,
// where the kernel has them, and the process's.
func setNice(pid, n int) error {
	err := os.WriteFile(fmt.Sprintf("/proc/%d/autogroup", pid), []byte(strconv.Itoa(n)), 0)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		err = syscall.Setpriority(syscall.PRIO_PROCESS, pid, n)
	}
	if err != nil {
		return fmt.Errorf("-nice %d: %w (a negative value needs root or CAP_SYS_NICE)", n, err)
	}
	return nil
}
