package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:       "reduce_scatter_block",
		Title:      "OSU MPI Reduce_scatter_block Latency Test",
		Version:    "7.4", // OSU 7.4 brought it
		Kind:       Collective,
		Job:        kernel.Params{Kernel: kernel.ReduceScatterBlock},
		MaxLog:     20,
		MinRanks:   2,
		Reduction:  true,
		SplitCount: true,
		Buffers:    SameBuffers,
		Bus:        bench.BusReduceScatter,
		Cost:       bench.CostReduceScatter,
		Summary:    "MPI_Reduce_scatter_block (MPI_SUM) of size bytes in all, a np-th of its elements for each rank",
	})
}
