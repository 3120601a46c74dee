package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Uniband",
		Kernel:    kernel.Uniband,
		Family:    MsgRate,
		TimeScale: 1,
		BWScale:   1,
		Buffers:   SameBuffers,
		Summary:   "pairs (i, i+np/2) stream windows of messages one way",
	})
}
