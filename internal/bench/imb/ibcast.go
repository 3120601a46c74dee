package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Ibcast",
		Op:        kernel.NBCIbcast,
		Order:     1,
		Reduction: false,
		Rooted:    true,
		Buffers:   SameBuffers,
		Bus:       bench.BusBcast,
		Cost:      bench.CostTree,
		Call:      "MPI_Ibcast of size bytes, the root rotating with -root_shift",
		Init:      "MPI_Bcast_init of size bytes, root 0",
	})
}
