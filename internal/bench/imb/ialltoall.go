package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ialltoall",
		Op:        kernel.NBCIalltoall,
		Order:     8,
		Reduction: false,
		Rooted:    false,
		Buffers:   alltoallBuffers,
		Bus:       bench.BusAlltoall,
		Cost:      bench.CostAlltoall,
		Call:      "MPI_Ialltoall, size bytes between every pair",
		Init:      "MPI_Alltoall_init, size bytes between every pair",
	})
}
