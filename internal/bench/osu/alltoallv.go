package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "alltoallv",
		Title:    "OSU MPI All-to-Allv Personalized Exchange Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Alltoallv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Cost:     bench.CostAlltoall,
		Summary:  "MPI_Alltoallv",
	})
}
