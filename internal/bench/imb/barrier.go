package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// noBuffers: Barrier moves no data.
func noBuffers(size int64, np int) (int64, int64) { return 0, 0 }

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Barrier",
		Kernel:    kernel.Barrier,
		Family:    Sync,
		Default:   true,
		Order:     19,
		TimeScale: 1,
		Buffers:   noBuffers,
		Cost:      bench.CostBarrier,
		Summary:   "MPI_Barrier",
	})
}
