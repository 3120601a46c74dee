package analysis

import (
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// eagerLimit is an MPI library's default switch from eager to rendezvous
// on a transport: a step of every benchmark within one size of it is the
// library's protocol switch, even where the larger sizes never regain
// the bandwidth of the size before (shared memory, where the caches cap
// the larger copies) and even where a sibling takes it one size apart.
type eagerLimit struct {
	bytes int64
	words string
}

// eagerLimits are the run's library's eager limits on the transport its
// ranks used, where gomb knows them: Open MPI 4's shared memory (vader,
// sm: btl_vader_eager_limit 4 KiB, the header included, so 4096-byte
// messages already step) and TCP (btl_tcp_eager_limit 64 KiB), MPICH's
// shared memory (16 KiB: every benchmark of the healthy corpus' MPICH 4.0
// launches steps at 8-16 KiB). None for a library gomb cannot tell.
func eagerLimits(in *explainInput) []eagerLimit {
	lib := library(in.run.Run)
	shm := in.loc == result.IntraNode || in.shmLikely
	tcp := in.ev.provider == "tcp" || strings.Contains(in.run.Run.MPI.Vars["btl"], "tcp") && in.loc == result.InterNode
	switch {
	case lib == "openmpi" && shm:
		return []eagerLimit{{4 << 10, "Open MPI's shared-memory eager limit (btl_vader_eager_limit, btl_sm_eager_limit: 4 KiB with the header)"}}
	case lib == "openmpi" && tcp:
		return []eagerLimit{{64 << 10, "Open MPI's TCP eager limit (btl_tcp_eager_limit: 64 KiB)"}}
	case lib == "mpich" && shm:
		return []eagerLimit{{16 << 10, "MPICH's shared-memory eager limit (16 KiB cells: MPIR_CVAR_CH4_SHM_POSIX_EAGER_*)"}}
	}
	return nil
}

// library is the MPI library a run names: "openmpi", "mpich" (MPICH
// itself, not its derivatives, whose limits differ), or "".
func library(run *result.Run) string {
	m := run.MPI
	switch {
	case m.Impl == "openmpi" || strings.HasPrefix(m.Library, "Open MPI"):
		return "openmpi"
	case m.Name == "MPICH" || strings.HasPrefix(m.Library, "MPICH Version"):
		return "mpich"
	}
	if run.Source != nil { // an imported log: its launch line
		l := run.Source.Meta["launch"]
		if strings.Contains(l, "mpirun.openmpi") || strings.Contains(l, "--mca ") || strings.Contains(l, "-mca ") {
			return "openmpi"
		}
	}
	for k := range run.Env {
		if strings.HasPrefix(k, "OMPI_MCA_") {
			return "openmpi"
		}
	}
	return ""
}
