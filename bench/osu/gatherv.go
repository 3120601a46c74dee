package osu

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/kernel"
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
