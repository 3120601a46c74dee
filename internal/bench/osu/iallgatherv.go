package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "iallgatherv",
		Title:    "OSU MPI Non-blocking Allgatherv Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIallgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Iallgatherv with overlapped compute",
	})
}
