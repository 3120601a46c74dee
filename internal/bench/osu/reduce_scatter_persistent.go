package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "reduce_scatter_persistent",
		Title:     "OSU MPI Reduce_scatter Persistent Latency Test",
		Version:   "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.ReduceScatterSplit, Persist: true},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusReduceScatter,
		Cost:      bench.CostReduceScatter,
		Summary:   "MPI_Reduce_scatter as a persistent request (MPI_Reduce_scatter_init once a size, MPI_Start and MPI_Wait)",
	})
}
