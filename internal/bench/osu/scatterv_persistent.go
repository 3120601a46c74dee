package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "scatterv_persistent",
		Title:    "OSU MPI Scatterv Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Scatterv, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Scatterv as a persistent request (MPI_Scatterv_init once a size, MPI_Start and MPI_Wait)",
	})
}
