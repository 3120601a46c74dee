package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Iscatterv",
		Op:        kernel.NBCIscatterv,
		Order:     7,
		Reduction: false,
		Rooted:    true,
		Buffers:   scatterBuffers,
		Cost:      bench.CostGather,
		Call:      "MPI_Iscatterv, size bytes from the root to each rank",
		Init:      "MPI_Scatterv_init, size bytes from root 0 to each rank",
	})
}
