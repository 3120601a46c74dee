package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Igather",
		Op:        kernel.NBCIgather,
		Order:     4,
		Reduction: false,
		Rooted:    true,
		Buffers:   gatherBuffers,
		Cost:      bench.CostGather,
		Call:      "MPI_Igather, size bytes from each rank to the root",
		Init:      "MPI_Gather_init, size bytes from each rank to root 0",
	})
}
