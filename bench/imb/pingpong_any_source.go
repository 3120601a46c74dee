package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "PingPongAnySource",
		Kernel:    mpi.KernelPingPong,
		Family:    bench.SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    mpi.SourceAny,
		Buffers:   bench.SameBuffers,
		Summary:   "PingPong receiving with MPI_ANY_SOURCE",
	})
}
