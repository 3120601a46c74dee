package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "neighbor_allgatherv",
		Title:    "OSU MPI Neighborhood Allgatherv Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Neighbor, NBCOp: kernel.NBCIneighborAllgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Neighbor_allgatherv on the -N topology (default cart:1:1, a ring)",
	})
}
