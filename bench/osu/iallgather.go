package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "iallgather",
		Title:    "OSU MPI Non-blocking Allgather Latency Test",
		Kind:     NonBlocking,
		Job:      mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIallgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Iallgather with overlapped compute",
	})
}
