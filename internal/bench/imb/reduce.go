package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Reduce",
		Kernel:    kernel.Reduce,
		Family:    Collective,
		Default:   true,
		Order:     6,
		TimeScale: 1,
		Reduction: true,
		Rooted:    true,
		Buffers:   SameBuffers,
		Cost:      bench.CostTree,
		Summary:   "MPI_Reduce (MPI_SUM) of size bytes to the root",
	})
}
