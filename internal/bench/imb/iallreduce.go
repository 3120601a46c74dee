package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Iallreduce",
		Op:        kernel.NBCIallreduce,
		Order:     12,
		Reduction: true,
		Rooted:    false,
		Buffers:   SameBuffers,
		Bus:       bench.BusAllreduce,
		Cost:      bench.CostTree,
		Call:      "MPI_Iallreduce (MPI_SUM) of size bytes",
		Init:      "MPI_Allreduce_init (MPI_SUM) of size bytes",
	})
}
