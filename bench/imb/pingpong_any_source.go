package imb

import (
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPongAnySource",
		Kernel:    mpi.KernelPingPong,
		Family:    SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    mpi.SourceAny,
		Buffers:   SameBuffers,
		Summary:   "PingPong receiving with MPI_ANY_SOURCE",
	})
}
