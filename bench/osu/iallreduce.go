package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:      "iallreduce",
		Title:     "OSU MPI Non-blocking Allreduce Latency Test",
		Kind:      NonBlocking,
		Job:       mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIallreduce},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Iallreduce (MPI_SUM) with overlapped compute",
	})
}
