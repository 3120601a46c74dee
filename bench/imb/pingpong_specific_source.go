package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "PingPongSpecificSource",
		Kernel:    mpi.KernelPingPong,
		Family:    bench.SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    mpi.SourceSpecific,
		Buffers:   bench.SameBuffers,
		Summary:   "PingPong receiving with an explicit source and tag",
	})
}
