// Package e2e holds gomb's end-to-end tests: the gomb binaries, built for
// Open MPI and for MPICH, run as a user runs them — under mpirun and
// mpiexec on loopback at 1, 2 and 4 ranks, across emulated hosts in
// network namespaces (scripts/testbed.sh), and without a launcher for the
// commands that need no MPI — and their text, records, archives, exit
// statuses and timings are checked. The package has no code of its own
// but these tests; each job runs under a timeout and every process a job
// started is gone before the next begins.
package e2e

import "github.com/gomb-hpc/gomb/internal/cli"

// The exit statuses the tests expect, gomb's own.
const (
	exitFailure     = cli.ExitFailure
	exitUsage       = cli.ExitUsage
	exitCheckFailed = cli.ExitCheckFailed
	exitRegression  = cli.ExitRegression
	exitWatchdog    = cli.ExitWatchdog
	exitNotRun      = cli.ExitNotRun
)
