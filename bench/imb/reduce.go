package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Reduce",
		Kernel:    mpi.KernelReduce,
		Family:    bench.Collective,
		Default:   true,
		Order:     6,
		TimeScale: 1,
		Reduction: true,
		Rooted:    true,
		Buffers:   bench.SameBuffers,
		Summary:   "MPI_Reduce (MPI_SUM) of size bytes to the root",
	})
}
