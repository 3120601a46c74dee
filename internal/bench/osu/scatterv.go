package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "scatterv",
		Title:    "OSU MPI Scatterv Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Scatterv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Scatterv",
	})
}
