package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Allgatherv",
		Kernel:    mpi.KernelAllgatherv,
		Family:    bench.Collective,
		Default:   true,
		Order:     11,
		TimeScale: 1,
		Buffers:   gatherBuffers,
		Summary:   "MPI_Allgatherv, size bytes from each rank",
	})
}
