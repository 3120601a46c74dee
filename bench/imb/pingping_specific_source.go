package imb

import (
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "PingPingSpecificSource",
		Kernel:    mpi.KernelPingPing,
		Family:    SingleTransfer,
		TimeScale: 1,
		BWScale:   1,
		Source:    mpi.SourceSpecific,
		Buffers:   SameBuffers,
		Summary:   "PingPing receiving with an explicit source and tag",
	})
}
