package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:      Suite,
		Name:       "Sendrecv",
		Kernel:     kernel.Sendrecv,
		Family:     ParallelTransfer,
		Default:    true,
		Order:      3,
		TimeScale:  1,
		BWScale:    2,
		Buffers:    SameBuffers,
		Directions: 2,
		Sends:      1,
		Summary:    "MPI_Sendrecv around a periodic chain of all active ranks",
	})
}
