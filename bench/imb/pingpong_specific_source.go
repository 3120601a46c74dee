package imb

import (
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPongSpecificSource",
		Kernel:    mpi.KernelPingPong,
		Family:    SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    mpi.SourceSpecific,
		Buffers:   SameBuffers,
		Summary:   "PingPong receiving with an explicit source and tag",
	})
}
