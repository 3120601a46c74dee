package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "reduce_scatter",
		Title:     "OSU MPI Reduce_scatter Latency Test",
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.ReduceScatterSplit},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusReduceScatter,
		Cost:      bench.CostReduceScatter,
		Summary:   "MPI_Reduce_scatter (MPI_SUM) of size bytes in all, split over the ranks",
	})
}
