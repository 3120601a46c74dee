package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:      Suite,
		Name:       "PingPong",
		Kernel:     kernel.PingPong,
		Family:     SingleTransfer,
		Default:    true,
		Order:      1,
		TimeScale:  0.5,
		BWScale:    1,
		Buffers:    SameBuffers,
		Reference:  true,
		Directions: 1,
		Sends:      1,
		Summary:    "one message back and forth between two ranks; half the round trip",
	})
}
