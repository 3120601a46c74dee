package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Allreduce",
		Kernel:    mpi.KernelAllreduce,
		Family:    bench.Collective,
		Default:   true,
		Order:     5,
		TimeScale: 1,
		Reduction: true,
		Buffers:   bench.SameBuffers,
		Summary:   "MPI_Allreduce (MPI_SUM) of size bytes",
	})
}
