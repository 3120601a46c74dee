package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ineighbor_alltoallw",
		Title:    "OSU MPI Non-blocking Neighborhood Alltoallw Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIneighborAlltoallw},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ineighbor_alltoallw on the -N topology, with overlapped compute",
	})
}
