package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Allgatherv",
		Kernel:    kernel.Allgatherv,
		Family:    Collective,
		Default:   true,
		Order:     11,
		TimeScale: 1,
		Buffers:   gatherBuffers,
		Cost:      bench.CostAllgather,
		Summary:   "MPI_Allgatherv, size bytes from each rank",
	})
}
