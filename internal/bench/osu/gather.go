package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// gatherBuffers: every rank sends one block and has room for np.
func gatherBuffers(size int64, np, window int) (int64, int64) { return size, int64(np) * size }

func init() {
	Register(&Spec{
		Name:     "gather",
		Title:    "OSU MPI Gather Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Gather},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Gather",
	})
}
