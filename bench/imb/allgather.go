package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Allgather",
		Kernel:    mpi.KernelAllgather,
		Family:    bench.Collective,
		Default:   true,
		Order:     10,
		TimeScale: 1,
		Buffers:   gatherBuffers,
		Summary:   "MPI_Allgather, size bytes from each rank",
	})
}
