package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// scatterBuffers: the root sends np blocks, every rank receives one.
func scatterBuffers(size int64, np int) (int64, int64) { return int64(np) * size, size }

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Scatter",
		Kernel:    kernel.Scatter,
		Family:    Collective,
		Default:   true,
		Order:     14,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   scatterBuffers,
		Cost:      bench.CostGather,
		Summary:   "MPI_Scatter from the root, size bytes to each rank",
	})
}
