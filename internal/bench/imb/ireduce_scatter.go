package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ireduce_scatter",
		Op:        kernel.NBCIreduceScatter,
		Order:     11,
		Reduction: true,
		Rooted:    false,
		Buffers:   reduceScatterBuffers,
		Bus:       bench.BusReduceScatter,
		Cost:      bench.CostReduceScatter,
		Call:      "MPI_Ireduce_scatter (MPI_SUM), size bytes of the result to each rank",
		Init:      "MPI_Reduce_scatter_init (MPI_SUM), size bytes of the result to each rank",
	})
}
