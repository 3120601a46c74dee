package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "barrier_persistent",
		Title:    "OSU MPI Barrier Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.BarrierCalls, Persist: true},
		NoSize:   true,
		MinRanks: 2,
		Buffers:  noBuffers,
		Cost:     bench.CostBarrier,
		Summary:  "MPI_Barrier as a persistent request (MPI_Barrier_init once, MPI_Start and MPI_Wait)",
	})
}
