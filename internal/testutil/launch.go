package testutil

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

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

// Env is what a test job of the MPI named impl adds to the environment,
// before the test's own variables (which may override them); tmp is a
// directory of the job's own.
//
// Open MPI's pml is named ob1: it picks ob1 here anyway (Debian's
// parameter file excludes pml ucx, and cm finds no mtl), but only after
// opening the mtl components, and loading them loads libinfinipath, whose
// constructor spends 0.2 s in usleep calls: 0.2 s of every launch (gomb
// osu hello 0.65 s, 0.45 s with ob1). In the environment, not on the
// command line, so that a test can still ask for pml ucx.
//
// Its session directory goes under tmp: mpiruns started side by side
// race to create the shared one in /tmp ("A call to mkdir was unable to
// create the desired directory: /tmp/ompi.HOST.0, File exists", and the
// job ends before it starts).
func Env(impl, tmp string) []string {
	if impl == "mpich" {
		return nil
	}
	return []string{"OMPI_MCA_pml=ob1", "OMPI_MCA_orte_tmpdir_base=" + tmp}
}

// RankEnv is set in the environment of the ranks LaunchSelf starts: a
// test binary's TestMain that finds it set runs as one rank of the job.
const RankEnv = "GOMB_TEST_RANK"

// ShortRanks are a test's process counts: all, or under -short the
// first.
func ShortRanks(all ...int) []int {
	if testing.Short() {
		return all[:1]
	}
	return all
}

// LaunchSelf runs the calling test binary as np ranks of an MPI job of the
// MPI named impl, with RankEnv=1 and env added, and returns what the ranks
// printed on stdout. The job must print "done" (rank 0's last line); a
// failed launch, a job over timeout or no "done" fails t.
func LaunchSelf(t testing.TB, impl string, np int, timeout time.Duration, env ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := append(Launch(impl, np), self, "-test.run", "^$")
	if _, err := exec.LookPath(argv[0]); err != nil {
		t.Skipf("%s: %v", argv[0], err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(append(append(os.Environ(), Env(impl, t.TempDir())...), RankEnv+"=1", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"), env...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || !strings.Contains(out.String(), "done") {
		t.Fatalf("%s job of %d ranks: %v\n%s\n%s", impl, np, err, out.String(), stderr.String())
	}
	return out.String()
}

// ReportRanks is the end of a LaunchSelf rank: every rank's failures go
// to rank 0 through gather (the MPI's gather of byte strings to rank 0),
// which prints a "FAIL ..." line for each and then "done". Its result is
// the rank's exit status.
func ReportRanks(rank int, fails []string, gather func([]byte) ([][]byte, error)) int {
	all, err := gather([]byte(strings.Join(fails, "\n")))
	if err != nil {
		fmt.Println("FAIL gather:", err)
		return 1
	}
	if rank == 0 {
		for _, b := range all {
			for _, l := range strings.Split(string(b), "\n") {
				if l != "" {
					fmt.Println("FAIL", l)
				}
			}
		}
		fmt.Println("done")
	}
	return 0
}

// Failures are the "FAIL ..." lines of a LaunchSelf job's output.
func Failures(out string) []string {
	var fails []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL") {
			fails = append(fails, l)
		}
	}
	return fails
}
