package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Bcast",
		Kernel:    kernel.Bcast,
		Family:    Collective,
		Default:   true,
		Order:     18,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   SameBuffers,
		Bus:       bench.BusBcast,
		Cost:      bench.CostTree,
		Summary:   "MPI_Bcast from the root",
	})
}
