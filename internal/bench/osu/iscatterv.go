package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "iscatterv",
		Title:    "OSU MPI Non-blocking Scatterv Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIscatterv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Iscatterv with overlapped compute",
	})
}
