package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "bcast",
		Title:    "OSU MPI Broadcast Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Bcast},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  SameBuffers,
		Bus:      bench.BusBcast,
		Cost:     bench.CostTree,
		Summary:  "MPI_Bcast",
	})
}
