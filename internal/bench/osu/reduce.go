package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "reduce",
		Title:     "OSU MPI Reduce Latency Test",
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.Reduce},
		MaxLog:    20,
		MinRanks:  2,
		Rooted:    true,
		Reduction: true,
		Buffers:   SameBuffers,
		Cost:      bench.CostTree,
		Summary:   "MPI_Reduce (MPI_SUM)",
	})
}
