package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPingSpecificSource",
		Kernel:    kernel.PingPing,
		Family:    SingleTransfer,
		TimeScale: 1,
		BWScale:   1,
		Source:    kernel.SourceSpecific,
		Buffers:   SameBuffers,
		Sends:     1,
		Summary:   "PingPing receiving with an explicit source and tag",
	})
}
