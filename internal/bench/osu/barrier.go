package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// noBuffers: a barrier moves no data.
func noBuffers(size int64, np, window int) (int64, int64) { return 0, 0 }

func init() {
	Register(&Spec{
		Name:     "barrier",
		Title:    "OSU MPI Barrier Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.BarrierCalls},
		NoSize:   true,
		MinRanks: 2,
		Buffers:  noBuffers,
		Cost:     bench.CostBarrier,
		Summary:  "MPI_Barrier",
	})
}
