package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Iallgather",
		Op:        kernel.NBCIallgather,
		Order:     2,
		Reduction: false,
		Rooted:    false,
		Buffers:   gatherBuffers,
		Bus:       bench.BusAllgather,
		Cost:      bench.CostAllgather,
		Call:      "MPI_Iallgather, size bytes from each rank",
		Init:      "MPI_Allgather_init, size bytes from each rank",
		// IMB-MPI4 2021.11 runs Allgather_persist only when named
		NotMPI4Default: true,
	})
}
