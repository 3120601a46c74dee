package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// alltoallBuffers: one block to and from every rank.
func alltoallBuffers(size int64, np int) (int64, int64) { return int64(np) * size, int64(np) * size }

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Alltoall",
		Kernel:    kernel.Alltoall,
		Family:    Collective,
		Default:   true,
		Order:     16,
		TimeScale: 1,
		Buffers:   alltoallBuffers,
		Bus:       bench.BusAlltoall,
		Cost:      bench.CostAlltoall,
		Summary:   "MPI_Alltoall, size bytes between every pair of ranks",
	})
}
