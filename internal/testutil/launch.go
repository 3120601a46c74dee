package testutil

import "strconv"

// Launch is the command line that starts np ranks of a test job with the
// MPI named impl ("openmpi" or "mpich"), on loopback only; the program
// and its arguments follow it.
func Launch(impl string, np int) []string {
	if impl == "mpich" {
		return []string{"mpirun.mpich", "-np", strconv.Itoa(np), "-launcher", "fork", "-iface", "lo"}
	}
	return []string{"mpirun.openmpi", "-np", strconv.Itoa(np), "--oversubscribe",
		"--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
}
