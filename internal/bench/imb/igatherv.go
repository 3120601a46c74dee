package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Igatherv",
		Op:        kernel.NBCIgatherv,
		Order:     5,
		Reduction: false,
		Rooted:    true,
		Buffers:   gatherBuffers,
		Cost:      bench.CostGather,
		Call:      "MPI_Igatherv, size bytes from each rank to the root",
		Init:      "MPI_Gatherv_init, size bytes from each rank to root 0",
	})
}
