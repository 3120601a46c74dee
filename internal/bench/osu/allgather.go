package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "allgather",
		Title:    "OSU MPI Allgather Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Allgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Bus:      bench.BusAllgather,
		Cost:     bench.CostAllgather,
		Summary:  "MPI_Allgather",
	})
}
