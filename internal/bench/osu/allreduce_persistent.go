package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:      "allreduce_persistent",
		Title:     "OSU MPI Allreduce Persistent Latency Test",
		Version:   "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:      Collective,
		Job:       kernel.Params{Kernel: kernel.Allreduce, Persist: true},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusAllreduce,
		Cost:      bench.CostTree,
		Summary:   "MPI_Allreduce as a persistent request (MPI_Allreduce_init once a size, MPI_Start and MPI_Wait)",
	})
}
