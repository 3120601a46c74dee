package testbed

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Slurm is a throwaway Slurm cluster made by scripts/slurm.sh: one node on
// this machine, or a slurmd on every host of a Bed (slurmctld on host 1).
// It is taken down when its test ends.
//
// It needs root and Debian's Slurm (slurmctld, slurmd, srun, munged; the
// project's test script installs them). Where they are missing StartSlurm
// skips the test, unless GOMB_REQUIRE_SLURM=1 (the test script sets it).
type Slurm struct {
	Conf   string // the cluster's slurm.conf (SLURM_CONF)
	bed    *Bed   // nil: one node, this machine
	dir    string // the cluster's directory (slurm.sh down removes it)
	script string
	env    []string
	jobs   atomic.Int32 // the commands made so far (Command)
}

var slurmSeq atomic.Int32

// StartSlurm brings up a cluster: on this machine when bed is nil, else over
// every host of bed (n of them).
func StartSlurm(t testing.TB, bed *Bed, n int) *Slurm {
	t.Helper()
	if testing.Short() {
		t.Skip("a Slurm cluster: in the whole suite, not in -short's tier")
	}
	requireOrSkip(t, "GOMB_REQUIRE_SLURM", "Slurm", slurmMissing())
	sweepSlurm(t)
	// The directory names the test process: a cluster whose process is
	// gone is swept by the next run.
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gombslurm%d-%d", os.Getpid(), slurmSeq.Add(1)))
	port := 6817 // inside the emulated hosts' own network namespaces
	if bed == nil {
		port = freePortPair(t)
	}
	s := &Slurm{Conf: filepath.Join(dir, "slurm.conf"), bed: bed, dir: dir,
		script: filepath.Join(filepath.Dir(scriptPath()), "slurm.sh"),
		env:    append(os.Environ(), "GOMB_SLURM_DIR="+dir, "GOMB_SLURM_PORT="+strconv.Itoa(port))}
	args := []string{"up"}
	if bed != nil {
		s.env = append(s.env, "GOMB_TESTBED_PREFIX="+bed.Prefix, "GOMB_TESTBED_DIR="+bed.dir)
		args = []string{"up-testbed", strconv.Itoa(n), strconv.Itoa(max(bed.Racks, 1))}
	}
	t.Cleanup(func() {
		if out, err := s.sh(60*time.Second, "down"); err != nil {
			t.Errorf("slurm.sh down: %v\n%s", err, out)
		}
	})
	if out, err := s.sh(90*time.Second, args...); err != nil {
		t.Fatalf("slurm.sh %v: %v\n%s", args, err, out)
	}
	return s
}

// Down takes the cluster down now (slurm.sh down), jobs and their srun
// included; the test's clean-up then finds nothing left.
func (s *Slurm) Down() (string, error) { return s.sh(60*time.Second, "down") }

func (s *Slurm) sh(limit time.Duration, args ...string) (string, error) {
	b := &Bed{script: s.script, env: s.env}
	return b.sh(limit, args...)
}

// Command returns (not started) a command run where the cluster's commands
// work: SLURM_CONF set, and on host 1 of the bed. Its PID is the program's
// own (the namespace entry execs it), so signals sent to it reach srun.
// Each command's Open MPI ranks keep their session directories in a
// folder of its own (orte_tmpdir_base): the emulated hosts share /tmp,
// and jobs sharing /tmp/ompi.HOST.0 race on it as mpirun's did
// (testutil.Env). That is not what crashes a rank in MPI_Init now and
// then under srun (its host's other rank may report "open(2) ... No
// such file or directory" beside it): a peer's first message reaches
// Open MPI's TCP transport before the rank's point-to-point layer
// registered its handlers, a call through a null pointer (docs/suite.md,
// -retries).
func (s *Slurm) Command(args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if s.bed == nil {
		cmd = exec.Command(args[0], args[1:]...)
	} else {
		cmd = exec.Command(filepath.Join(s.bed.dir, "nsrun"),
			append([]string{s.bed.Host(1), "env", "SLURM_CONF=" + s.Conf}, args...)...)
	}
	cmd.Env = append(append([]string{}, s.env...), "SLURM_CONF="+s.Conf)
	if s.dir != "" {
		tmp := filepath.Join(s.dir, fmt.Sprintf("ompi-%d", s.jobs.Add(1)))
		_ = os.MkdirAll(tmp, 0o755) // missing, Open MPI's own line says so
		cmd.Env = append(cmd.Env, "OMPI_MCA_orte_tmpdir_base="+tmp)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Output runs a command (Command) and returns its output.
func (s *Slurm) Output(t testing.TB, args ...string) string {
	t.Helper()
	out, err := s.Command(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

func slurmMissing() string {
	if os.Geteuid() != 0 {
		return "not root"
	}
	for _, c := range []string{"slurmctld", "slurmd", "srun", "sbatch", "munged"} {
		if _, err := exec.LookPath(c); err != nil {
			return c + " is not installed"
		}
	}
	return ""
}

// freePortPair finds two consecutive free TCP ports on this machine
// (slurmctld's and slurmd's).
func freePortPair(t testing.TB) int {
	t.Helper()
	for range 50 {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			t.Fatal(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l2, err := net.Listen("tcp", ":"+strconv.Itoa(p+1))
		l.Close()
		if err == nil {
			l2.Close()
			return p
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

var ownedSlurm = regexp.MustCompile(`^gombslurm([0-9]+)-[0-9]+$`)

// sweepSlurm takes down the clusters of test processes that no longer run.
func sweepSlurm(t testing.TB) {
	ents, _ := os.ReadDir(os.TempDir())
	for _, e := range ents {
		m := ownedSlurm.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if _, err := os.Stat("/proc/" + m[1]); !os.IsNotExist(err) {
			continue
		}
		s := &Slurm{script: filepath.Join(filepath.Dir(scriptPath()), "slurm.sh"),
			env: append(os.Environ(), "GOMB_SLURM_DIR="+filepath.Join(os.TempDir(), e.Name()))}
		if out, err := s.sh(60*time.Second, "down"); err != nil {
			t.Logf("a stale Slurm cluster %s: down failed: %v\n%s", e.Name(), err, out)
		}
	}
}
