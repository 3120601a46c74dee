package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "igatherv",
		Title:    "OSU MPI Non-blocking Gatherv Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Igatherv with overlapped compute",
	})
}
