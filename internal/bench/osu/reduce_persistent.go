package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "reduce_persistent",
		Title:     "OSU MPI Reduce Persistent Latency Test",
		Version:   "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.Reduce, Persist: true},
		MaxLog:    20,
		MinRanks:  2,
		Rooted:    true,
		Reduction: true,
		Buffers:   SameBuffers,
		Cost:      bench.CostTree,
		Summary:   "MPI_Reduce as a persistent request (MPI_Reduce_init once a size, MPI_Start and MPI_Wait)",
	})
}
