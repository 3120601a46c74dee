package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPingAnySource",
		Kernel:    kernel.PingPing,
		Family:    SingleTransfer,
		TimeScale: 1,
		BWScale:   1,
		Source:    kernel.SourceAny,
		Buffers:   SameBuffers,
		Sends:     1,
		Summary:   "PingPing receiving with MPI_ANY_SOURCE",
	})
}
