package imb

import (
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPingAnySource",
		Kernel:    mpi.KernelPingPing,
		Family:    SingleTransfer,
		TimeScale: 1,
		BWScale:   1,
		Source:    mpi.SourceAny,
		Buffers:   SameBuffers,
		Summary:   "PingPing receiving with MPI_ANY_SOURCE",
	})
}
