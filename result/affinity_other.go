//go:build !linux

package result

// cpuAffinity is empty where the kernel has no CPU affinity call (macOS:
// the analysis build, which measures nothing).
func cpuAffinity() string { return "" }
