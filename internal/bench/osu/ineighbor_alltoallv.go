package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ineighbor_alltoallv",
		Title:    "OSU MPI Non-blocking Neighborhood Alltoallv Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIneighborAlltoallv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ineighbor_alltoallv on the -N topology, with overlapped compute",
	})
}
