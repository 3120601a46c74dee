package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Reduce_local",
		Kernel:    mpi.KernelReduceLocal,
		Family:    bench.Collective,
		Default:   true,
		Order:     7,
		TimeScale: 1,
		Reduction: true,
		Buffers:   bench.SameBuffers,
		Summary:   "MPI_Reduce_local (MPI_SUM) of size bytes on every rank",
	})
}
