package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Allgather",
		Kernel:    kernel.Allgather,
		Family:    Collective,
		Default:   true,
		Order:     10,
		TimeScale: 1,
		Buffers:   gatherBuffers,
		Bus:       bench.BusAllgather,
		Cost:      bench.CostAllgather,
		Summary:   "MPI_Allgather, size bytes from each rank",
	})
}
