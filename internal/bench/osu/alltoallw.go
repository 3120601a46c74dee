package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "alltoallw",
		Title:    "OSU MPI All-to-Allw Personalized Exchange Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Alltoallw},
		MaxLog:   20,
		MinRanks: 2,
		Cost:     bench.CostAlltoall,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Alltoallw: a block per rank, byte displacements",
	})
}
