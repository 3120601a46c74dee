package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "allreduce",
		Title:     "OSU MPI Allreduce Latency Test",
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.Allreduce},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusAllreduce,
		Cost:      bench.CostTree,
		Summary:   "MPI_Allreduce (MPI_SUM)",
	})
}
