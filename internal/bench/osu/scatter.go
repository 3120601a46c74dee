package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// scatterBuffers: the root sends np blocks, every rank receives one.
func scatterBuffers(size int64, np, window int) (int64, int64) { return int64(np) * size, size }

func init() {
	Register(&Spec{
		Name:     "scatter",
		Title:    "OSU MPI Scatter Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Scatter},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Scatter",
	})
}
