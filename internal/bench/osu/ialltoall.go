package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ialltoall",
		Title:    "OSU MPI Non-blocking All-to-All Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIalltoall},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ialltoall with overlapped compute",
	})
}
