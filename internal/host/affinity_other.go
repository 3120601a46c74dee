//go:build !linux

package host

// cpuAffinity is empty where the kernel has no CPU affinity call (macOS:
// the analysis build, which measures nothing).
func cpuAffinity() string { return "" }
