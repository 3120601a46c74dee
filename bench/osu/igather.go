package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "igather",
		Title:    "OSU MPI Non-blocking Gather Latency Test",
		Kind:     NonBlocking,
		Job:      mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIgather},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Igather with overlapped compute",
	})
}
