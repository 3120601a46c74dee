package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "PingPingAnySource",
		Kernel:    mpi.KernelPingPing,
		Family:    bench.SingleTransfer,
		TimeScale: 1,
		BWScale:   1,
		Source:    mpi.SourceAny,
		Buffers:   bench.SameBuffers,
		Summary:   "PingPing receiving with MPI_ANY_SOURCE",
	})
}
