package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPongAnySource",
		Kernel:    kernel.PingPong,
		Family:    SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    kernel.SourceAny,
		Buffers:   SameBuffers,
		Sends:     1,
		Summary:   "PingPong receiving with MPI_ANY_SOURCE",
	})
}
