package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "allgather_persistent",
		Title:    "OSU MPI Allgather Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Allgather, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Bus:      bench.BusAllgather,
		Cost:     bench.CostAllgather,
		Summary:  "MPI_Allgather as a persistent request (MPI_Allgather_init once a size, MPI_Start and MPI_Wait)",
	})
}
