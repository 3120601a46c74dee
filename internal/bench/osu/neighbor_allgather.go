package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "neighbor_allgather",
		Title:    "OSU MPI Neighborhood Allgather Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Neighbor, NBCOp: kernel.NBCIneighborAllgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Neighbor_allgather on the -N topology (default cart:1:1, a ring)",
	})
}
