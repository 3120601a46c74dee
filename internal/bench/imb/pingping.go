package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:      Suite,
		Name:       "PingPing",
		Kernel:     kernel.PingPing,
		Family:     SingleTransfer,
		Default:    true,
		Order:      2,
		TimeScale:  1,
		BWScale:    1,
		Buffers:    SameBuffers,
		Directions: 2,
		Sends:      1,
		Summary:    "two ranks send to each other at once (MPI_Isend, MPI_Recv, MPI_Wait)",
	})
}
