package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/host"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
	"golang.org/x/sys/unix"
)

// What a run record says of where and how it ran: hosts, the rank→host
// map, MPI library, environment, binding; and the run id.

// EnvRank guesses the world rank before MPI_Init from the launcher's
// environment; -1 if unknown.
func EnvRank() int {
	return envInt("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")
}

// rank0Beside is the PID of world rank 0 when it runs on this host beside
// this rank (a process with the same parent, the launcher's proxy, whose
// environment names it rank 0), else 0. Read from /proc when a signal
// comes: no MPI traffic, and nothing at start-up.
func rank0Beside() int {
	parent := os.Getppid()
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); err != nil || i < 0 {
			continue
		} else if f := strings.Fields(string(stat[i+1:])); len(f) < 2 || f[1] != strconv.Itoa(parent) {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			k, v, _ := bytes.Cut(kv, []byte("="))
			switch string(k) {
			case "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID":
				if string(v) == "0" {
					return pid
				}
			}
		}
	}
	return 0
}

// quietStderr sends this process's standard error to /dev/null.
func quietStderr() {
	if f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		_ = unix.Dup2(int(f.Fd()), 2)
		f.Close()
	}
}

// launched is how many processes the launcher says it started, and the
// variable that says so (0 when none does): Open MPI's mpirun, MPICH's
// hydra (and Slurm's PMI2), Slurm's srun (the step's tasks: SLURM_NTASKS
// is the allocation's, set for a program run without a launcher too).
func launched() (int, string) {
	for _, k := range []string{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"} {
		if n := envInt(k); n > 0 {
			return n, fmt.Sprintf("%s=%d", k, n)
		}
	}
	return 0, ""
}

// srunStarted says whether Slurm's srun started this process itself (not
// through mpirun's or Hydra's daemons, which srun may start in turn), and
// with which --mpi plugin ("none" when it gave none).
func srunStarted() (string, bool) {
	if result.LauncherFromEnv(result.EnvMap(os.Environ())) != result.LauncherSrun {
		return "", false
	}
	plugin := os.Getenv("SLURM_MPI_TYPE")
	if plugin == "" {
		plugin = "none"
	}
	return plugin, true
}

// srunAnyPMI lets the MPI library try whatever srun's plugin gave it (an
// Open MPI built with Slurm's PMI2 support, --with-pmi).
const srunAnyPMI = "GOMB_SRUN_ANY_MPI"

// srunWithoutPMI explains why this Open MPI process cannot start under
// srun's plugin ("" when it can, or when srun did not start it): Open MPI
// 4.1, as Debian and most sites build it, reads its rank and peers from
// PMIx alone, and aborts inside MPI_Init otherwise.
func srunWithoutPMI() string {
	plugin, ok := srunStarted()
	if !ok || mpi.Family() != "openmpi" || strings.HasPrefix(plugin, "pmix") || os.Getenv(srunAnyPMI) == "1" {
		return ""
	}
	return fmt.Sprintf("srun started this job with --mpi=%s, but %s (%s=1 lets an Open MPI built with Slurm's PMI2 try)",
		plugin, srunAdvice(), srunAnyPMI)
}

// srunAdvice says which plugin srun must start this build with.
func srunAdvice() string {
	switch mpi.Family() {
	case "mpich":
		return fmt.Sprintf("this gomb is built for %s: use srun --mpi=pmi2 (or the plugin your site's MPI module names: Cray MPICH cray_shasta, Intel MPI pmi2 with I_MPI_PMI_LIBRARY)", libraryName())
	case "openmpi":
		return fmt.Sprintf("this gomb is built for %s, which reads its ranks from PMIx: use srun --mpi=pmix", libraryName())
	}
	return fmt.Sprintf("this gomb is built for %s: use the srun --mpi plugin its documentation names", libraryName())
}

// libraryName is how people call the MPI library this gomb runs with: the
// library's own name when MPI_Get_library_version gives one it knows, or
// else the header's.
func libraryName() string {
	if lib, err := mpi.LibraryVersion(); err == nil {
		if l := mpi.Identify(lib); l.Name != "" {
			return l.Name
		}
	}
	return mpi.BuildInfo().Header
}

// otherBuild says what to run instead under another MPI's launcher: the
// gomb built for Debian's other MPI when it sits beside this binary, or
// else a gomb built with the launcher's own compiler wrapper.
func otherBuild() string {
	name := "gomb-mpich"
	if mpi.Family() == "mpich" {
		name = "gomb"
	}
	other := filepath.Join(filepath.Dir(os.Args[0]), name)
	if st, err := os.Stat(other); err == nil && !st.IsDir() {
		return other
	}
	return "the launcher that came with this gomb's MPI, or a gomb built with the launcher's MPI (CC=mpicc go build ./cmd/gomb; docs/install.md)"
}

// mpiRecord describes the library the run used: what it says of itself
// and what this binary was compiled with.
func mpiRecord(lib string, major, minor int, thread, init string, vars map[string]string) result.MPI {
	id, b := mpi.Identify(lib), mpi.BuildInfo()
	family := mpi.Family()
	if family == "abi" && id.Family != "" {
		family = id.Family
	}
	if family == "abi" {
		family = "other"
	}
	return result.MPI{Impl: family, Library: strings.TrimSpace(lib), Name: id.Name, Version: id.Version,
		Header: b.Header, Features: b.Features, Standard: fmt.Sprintf("%d.%d", major, minor), Thread: thread, Init: init, Vars: vars}
}

// envLocalRank is the rank among the processes of this host, for picking a
// GPU; -1 if unknown.
func envLocalRank() int {
	return envInt("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MPI_LOCAL_RANK", "SLURM_LOCALID")
}

func envInt(keys ...string) int {
	for _, k := range keys {
		if v := os.Getenv(k); v != "" {
			var r int
			if _, err := fmt.Sscan(v, &r); err == nil {
				return r
			}
		}
	}
	return -1
}

// newRunID returns 16 random hex digits.
func newRunID() string { return fmt.Sprintf("%016x", rand.Uint64()) }

// provenance gathers every rank's host, binding, CPU and kernel to rank 0
// and builds the run record there (nil elsewhere).
func (s *Session) provenance(options any) (*result.Run, error) {
	name, err := mpi.ProcessorName()
	if err != nil || name == "" {
		name, _ = os.Hostname()
	}
	mine, _ := json.Marshal(host.LocalRank(s.Rank, name))
	all, err := s.World.GathervBytes(mine, 0)
	if err != nil {
		return nil, err
	}
	var run *result.Run
	err = s.OnRoot(func() (err error) {
		run, err = s.runRecord(options, all)
		return err
	})
	return run, err
}

// runRecord builds the run record from every rank's provenance and writes
// it (rank 0).
func (s *Session) runRecord(options any, all [][]byte) (*result.Run, error) {
	lib, err := mpi.LibraryVersion()
	if err != nil {
		return nil, err
	}
	ma, mi, err := mpi.StandardVersion()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(result.TransportVars))
	for i, v := range result.TransportVars {
		names[i] = v.Name
	}
	run := &result.Run{
		RunID:     s.out.runID,
		Tool:      result.Tool{Name: "gomb", Version: s.cmd.Version, GoVersion: runtime.Version()},
		Suite:     s.cmd.Suite,
		Command:   append([]string{os.Args[0], s.cmd.Name}, s.cmd.Args...),
		Start:     s.out.start,
		MPI:       mpiRecord(lib, ma, mi, s.provided.String(), s.cmd.Level.InitCall(), transportVars(names)),
		WorldSize: s.Size,
		Env:       result.Env(os.Environ()),
		Options:   options,
		Labels:    s.cmd.Flags.Labels,
	}
	environ := result.EnvMap(os.Environ())
	run.Launcher = result.LauncherFromEnv(environ)
	seen := map[string]bool{}
	for i, b := range all {
		var r result.Rank
		if err := json.Unmarshal(bytes.TrimSpace(b), &r); err != nil {
			return nil, fmt.Errorf("provenance of rank %d: %v", i, err)
		}
		run.Ranks = append(run.Ranks, r)
		s.rankHost = append(s.rankHost, r.Host)
		if !seen[r.Host] {
			seen[r.Host] = true
			run.Hosts = append(run.Hosts, r.Host)
		}
	}
	run.Job = result.JobFromEnv(environ, s.rankHost)
	if s.out.enc != nil {
		if err := s.out.enc.Run(run); err != nil {
			return nil, fmt.Errorf("-json: %w", err)
		}
	}
	if s.out.keep != nil {
		s.out.keep.Run = run
	}
	return run, nil
}

// Hosts lists the host of every rank of a run record.
func Hosts(run *result.Run) []string { return run.RankHosts() }

// hostsOf names the hosts of the given ranks, each once.
func hostsOf(rankHost []string, ranks []int) string {
	var hs []string
	seen := map[string]bool{}
	for _, rk := range ranks {
		if rk < len(rankHost) && !seen[rankHost[rk]] {
			seen[rankHost[rk]] = true
			hs = append(hs, rankHost[rk])
		}
	}
	return strings.Join(hs, ", ")
}

// transportVars are the transport-selection control variables that hold a
// value (result.TransportVars). An empty one is left out: nothing asked for
// it, or (MPICH 4.0's string variables read back empty through MPI_T even
// when set: its environment variables of the same name are in Env) it
// cannot be told.
func transportVars(names []string) map[string]string {
	out := map[string]string{}
	for k, v := range mpi.ControlVars(names) {
		if v != "" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
