package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Sendrecv",
		Kernel:    mpi.KernelSendrecv,
		Family:    bench.ParallelTransfer,
		Default:   true,
		Order:     3,
		TimeScale: 1,
		BWScale:   2,
		Buffers:   bench.SameBuffers,
		Summary:   "MPI_Sendrecv around a periodic chain of all active ranks",
	})
}
