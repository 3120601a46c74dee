package host

import (
	"golang.org/x/sys/unix"

	"github.com/gomb-hpc/gomb/result"
)

// cpuAffinity is the calling thread's CPU binding as a CPU list.
func cpuAffinity() string {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return ""
	}
	var cpus []int
	for i := 0; i < 1024; i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return result.CPUList(cpus)
}
