package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "neighbor_alltoallv",
		Title:    "OSU MPI Neighborhood All-to-Allv Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Neighbor, NBCOp: kernel.NBCIneighborAlltoallv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Neighbor_alltoallv on the -N topology (default cart:1:1, a ring)",
	})
}
