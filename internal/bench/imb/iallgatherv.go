package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Iallgatherv",
		Op:        kernel.NBCIallgatherv,
		Order:     3,
		Reduction: false,
		Rooted:    false,
		Buffers:   gatherBuffers,
		Cost:      bench.CostAllgather,
		Call:      "MPI_Iallgatherv, size bytes from each rank",
		Init:      "MPI_Allgatherv_init, size bytes from each rank",
	})
}
