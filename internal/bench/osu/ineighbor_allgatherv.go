package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ineighbor_allgatherv",
		Title:    "OSU MPI Non-blocking Neighborhood Allgatherv Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIneighborAllgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Ineighbor_allgatherv on the -N topology, with overlapped compute",
	})
}
