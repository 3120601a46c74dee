//go:build cgo

package mpi

import (
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
