package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Reduce_local",
		Kernel:    kernel.ReduceLocal,
		Family:    Collective,
		Default:   true,
		Order:     7,
		TimeScale: 1,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Reduce_local (MPI_SUM) of size bytes on every rank",
	})
}
