package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	registerNBC(nbcTwin{
		Name:      "Iscatter",
		Op:        kernel.NBCIscatter,
		Order:     6,
		Reduction: false,
		Rooted:    true,
		Buffers:   scatterBuffers,
		Cost:      bench.CostGather,
		Call:      "MPI_Iscatter, size bytes from the root to each rank",
		Init:      "MPI_Scatter_init, size bytes from root 0 to each rank",
	})
}
