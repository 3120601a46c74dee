package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:      Suite,
		Name:       "Biband",
		Kernel:     kernel.Biband,
		Family:     MsgRate,
		TimeScale:  1,
		BWScale:    2,
		Buffers:    SameBuffers,
		Directions: 2,
		Summary:    "pairs (i, i+np/2) stream windows of messages both ways",
	})
}
