package imb

import (
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Bcast",
		Kernel:    mpi.KernelBcast,
		Family:    Collective,
		Default:   true,
		Order:     18,
		TimeScale: 1,
		Rooted:    true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Bcast from the root",
	})
}
