package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "bcast_persistent",
		Title:    "OSU MPI Broadcast Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Bcast, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  SameBuffers,
		Bus:      bench.BusBcast,
		Cost:     bench.CostTree,
		Summary:  "MPI_Bcast as a persistent request (MPI_Bcast_init once a size, MPI_Start and MPI_Wait)",
	})
}
