package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "neighbor_alltoall",
		Title:    "OSU MPI Neighborhood Alltoall Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Neighbor, NBCOp: kernel.NBCIneighborAlltoall},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Neighbor_alltoall on the -N topology (default cart:1:1, a ring)",
	})
}
