package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "igather",
		Title:    "OSU MPI Non-blocking Gather Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIgather},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Igather with overlapped compute",
	})
}
