package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// gatherBuffers: every rank sends one block and has room for np.
func gatherBuffers(size int64, np int) (int64, int64) { return size, int64(np) * size }

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Gather",
		Kernel:    kernel.Gather,
		Family:    Collective,
		Default:   true,
		Order:     12,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   gatherBuffers,
		Cost:      bench.CostGather,
		Summary:   "MPI_Gather to the root, size bytes from each rank",
	})
}
