package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "ibarrier",
		Title:    "OSU MPI Non-blocking Barrier Latency Test",
		Kind:     NonBlocking,
		Job:      mpi.JobSpec{Kernel: mpi.KernelNBC, NBCOp: mpi.NBCIbarrier},
		NoSize:   true,
		MinRanks: 2,
		Buffers:  noBuffers,
		Summary:  "MPI_Ibarrier with overlapped compute",
	})
}
