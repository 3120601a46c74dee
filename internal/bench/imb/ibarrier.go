package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ibarrier",
		Op:        kernel.NBCIbarrier,
		Order:     13,
		Reduction: false,
		Rooted:    false,
		Buffers:   noBuffers,
		Cost:      bench.CostBarrier,
		Call:      "MPI_Ibarrier",
		Init:      "MPI_Barrier_init",
	})
}
