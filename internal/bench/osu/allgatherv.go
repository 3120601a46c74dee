package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "allgatherv",
		Title:    "OSU MPI Allgatherv Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Allgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Cost:     bench.CostAllgather,
		Summary:  "MPI_Allgatherv",
	})
}
