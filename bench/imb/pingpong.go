package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "PingPong",
		Kernel:    mpi.KernelPingPong,
		Family:    bench.SingleTransfer,
		Default:   true,
		Order:     1,
		TimeScale: 0.5,
		BWScale:   1,
		Buffers:   bench.SameBuffers,
		Summary:   "one message back and forth between two ranks; half the round trip",
	})
}
