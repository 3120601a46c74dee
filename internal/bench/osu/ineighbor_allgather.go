package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ineighbor_allgather",
		Title:    "OSU MPI Non-blocking Neighborhood Allgather Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIneighborAllgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Ineighbor_allgather on the -N topology, with overlapped compute",
	})
}
