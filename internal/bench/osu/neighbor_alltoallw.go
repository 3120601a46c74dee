package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "neighbor_alltoallw",
		Title:    "OSU MPI All-to-Allw Personalized Exchange Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Neighbor, NBCOp: kernel.NBCIneighborAlltoallw},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Neighbor_alltoallw on the -N topology (default cart:1:1, a ring)",
	})
}
