package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "BarrierMT",
		Op:       kernel.MTBarrier,
		Order:    7,
		Separate: true,
		Format:   Sync,
		Divide:   1,
		BWScale:  1,
		Summary:  "MPI_Barrier on every thread's communicator (an OpenMP barrier first), each call timed",
	})
}
