package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "ibcast",
		Title:    "OSU MPI Non-blocking Broadcast Latency Test",
		Kind:     NonBlocking,
		Job:      mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIbcast},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  SameBuffers,
		Summary:  "MPI_Ibcast with overlapped compute",
	})
}
