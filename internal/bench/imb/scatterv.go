package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Scatterv",
		Kernel:    kernel.Scatterv,
		Family:    Collective,
		Default:   true,
		Order:     15,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   scatterBuffers,
		Cost:      bench.CostGather,
		Summary:   "MPI_Scatterv from the root, size bytes to each rank",
	})
}
