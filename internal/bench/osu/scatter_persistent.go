package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "scatter_persistent",
		Title:    "OSU MPI Scatter Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Scatter, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Cost:     bench.CostGather,
		Summary:  "MPI_Scatter as a persistent request (MPI_Scatter_init once a size, MPI_Start and MPI_Wait)",
	})
}
