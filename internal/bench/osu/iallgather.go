package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "iallgather",
		Title:    "OSU MPI Non-blocking Allgather Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIallgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Iallgather with overlapped compute",
	})
}
