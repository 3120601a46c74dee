package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "iscatter",
		Title:    "OSU MPI Non-blocking Scatter Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIscatter},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Summary:  "MPI_Iscatter with overlapped compute",
	})
}
