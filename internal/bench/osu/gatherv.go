package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "gatherv",
		Title:    "OSU MPI Gatherv Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Gatherv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Gatherv",
	})
}
