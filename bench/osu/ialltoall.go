package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "ialltoall",
		Title:    "OSU MPI Non-blocking All-to-All Latency Test",
		Kind:     NonBlocking,
		Job:      mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIalltoall},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ialltoall with overlapped compute",
	})
}
