package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPongSpecificSource",
		Kernel:    kernel.PingPong,
		Family:    SingleTransfer,
		TimeScale: 0.5,
		BWScale:   1,
		Source:    kernel.SourceSpecific,
		Buffers:   SameBuffers,
		Sends:     1,
		Summary:   "PingPong receiving with an explicit source and tag",
	})
}
