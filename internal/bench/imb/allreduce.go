package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Allreduce",
		Kernel:    kernel.Allreduce,
		Family:    Collective,
		Default:   true,
		Order:     5,
		TimeScale: 1,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusAllreduce,
		Cost:      bench.CostTree,
		Summary:   "MPI_Allreduce (MPI_SUM) of size bytes",
	})
}
