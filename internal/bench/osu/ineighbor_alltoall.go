package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ineighbor_alltoall",
		Title:    "OSU MPI Non-blocking Neighborhood Alltoall Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIneighborAlltoall},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ineighbor_alltoall on the -N topology, with overlapped compute",
	})
}
