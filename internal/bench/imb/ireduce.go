package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ireduce",
		Op:        kernel.NBCIreduce,
		Order:     10,
		Reduction: true,
		Rooted:    true,
		Buffers:   SameBuffers,
		Cost:      bench.CostTree,
		Call:      "MPI_Ireduce (MPI_SUM) of size bytes",
		Init:      "MPI_Reduce_init (MPI_SUM) of size bytes, root 0",
	})
}
