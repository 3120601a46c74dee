package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Gatherv",
		Kernel:    kernel.Gatherv,
		Family:    Collective,
		Default:   true,
		Order:     13,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   gatherBuffers,
		Cost:      bench.CostGather,
		Summary:   "MPI_Gatherv to the root, size bytes from each rank",
	})
}
