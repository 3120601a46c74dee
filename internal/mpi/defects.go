//go:build cgo

package mpi

import (
	"os"
	"strings"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Defect names a known defect of the running library that would crash
// call p on a window made as win ("" when none is known), with what to do
// instead: gomb refuses such a call in one line rather than die in the
// library. oneNode: every rank is on one node. Call it after Init.
//
// Open MPI 4.0 and 4.1 (osc/rdma over btl/vader, its choice for a window
// from MPI_Win_allocate among ranks of one node when UCX does not carry
// one-sided traffic) fault on a 64-bit MPI_Compare_and_swap: a 20-line C
// program and OSU's own osu_cas_latency crash the same way (open-mpi/ompi
// issues 7967, 11349). A user whose osc selection leaves rdma out, or who
// picks the UCX pml, has chosen another path and is not refused.
func Defect(p kernel.Params, win kernel.WinMode, oneNode bool) string {
	if p.Kernel != kernel.RMA || p.RMAOp != kernel.RMACompareSwap || p.Type.Size() != 8 ||
		win != kernel.WinAllocate || !oneNode || Family() != "openmpi" {
		return ""
	}
	lib, err := LibraryVersion()
	if err != nil {
		return ""
	}
	if l := Identify(lib); l.Name != "Open MPI" || !strings.HasPrefix(l.Version, "4.") {
		return ""
	}
	v := ControlVars([]string{"osc", "pml"})
	if !mayChoose(v["osc"], "rdma") || v["pml"] == "ucx" {
		return ""
	}
	return "Open MPI 4's one-sided rdma component crashes on a 64-bit MPI_Compare_and_swap in an MPI_Win_allocate window " +
		"shared by the ranks of one node (open-mpi/ompi issue 7967; OSU's osu_cas_latency crashes the same way): " +
		"choose another component (mpirun --mca osc pt2pt, or osc ucx) or another window (-w create)"
}

// CollectiveDefect names a known defect of the running library that
// breaks collective call p among np ranks ("" when none is known), with
// what to do instead; gomb refuses the call in one line. Call it after
// Init.
//
// MPICH 4.0's persistent MPI_Scatter_init at 3 processes and more: its
// binomial schedule is not made ready again for the second MPI_Start, and
// that MPI_Wait fails ("Invalid communicator") on the ranks that forward
// data down the tree while the others wait for data that never comes
// (pmodels/mpich issues 7550 and 7607; OSU 7.4's osu_scatter_persistent
// and IMB-MPI4's Scatter_persist fail the same way), so the ranks cannot
// even agree that the test failed. The tree schedule (tsp_tree) does not
// have the defect; a user who chose it is not refused. Other MPICH
// versions are not refused: this one is the one measured.
func CollectiveDefect(p kernel.Params, np int) string {
	if p.Kernel != kernel.Scatter || !p.Persist || np < 3 || Family() != "mpich" {
		return ""
	}
	lib, err := LibraryVersion()
	if err != nil {
		return ""
	}
	if l := Identify(lib); l.Name != "MPICH" || l.Version != "4.0" && !strings.HasPrefix(l.Version, "4.0.") {
		return ""
	}
	const cvar = "MPIR_CVAR_ISCATTER_INTRA_ALGORITHM"
	switch os.Getenv(cvar) {
	case "", "auto", "sched_auto", "sched_binomial":
	default:
		return ""
	}
	return "MPICH 4.0's persistent MPI_Scatter_init fails at 3 processes and more, on some ranks only, while the others wait " +
		"(pmodels/mpich issue 7550; OSU's osu_scatter_persistent fails the same way): choose its tree schedule (" + cvar + "=tsp_tree) or 2 processes"
}
