package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ialltoallv",
		Op:        kernel.NBCIalltoallv,
		Order:     9,
		Reduction: false,
		Rooted:    false,
		Buffers:   alltoallBuffers,
		Cost:      bench.CostAlltoall,
		Call:      "MPI_Ialltoallv, size bytes between every pair",
		Init:      "MPI_Alltoallv_init, size bytes between every pair",
	})
}
