package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Bcast",
		Kernel:    mpi.KernelBcast,
		Family:    bench.Collective,
		Default:   true,
		Order:     18,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   bench.SameBuffers,
		Summary:   "MPI_Bcast from the root",
	})
}
