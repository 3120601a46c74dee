package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "allgatherv_persistent",
		Title:    "OSU MPI Allgatherv Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Allgatherv, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Cost:     bench.CostAllgather,
		Summary:  "MPI_Allgatherv as a persistent request (MPI_Allgatherv_init once a size, MPI_Start and MPI_Wait)",
	})
}
