package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "ibarrier",
		Title:    "OSU MPI Non-blocking Barrier Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIbarrier},
		NoSize:   true,
		MinRanks: 2,
		Buffers:  noBuffers,
		Cost:     bench.CostBarrier,
		Summary:  "MPI_Ibarrier with overlapped compute",
	})
}
