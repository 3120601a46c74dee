package imb

import (
	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/mpi"
)

func init() {
	bench.Register(&bench.Spec{
		Suite:     Suite,
		Name:      "Uniband",
		Kernel:    mpi.KernelUniband,
		Family:    bench.MsgRate,
		TimeScale: 1,
		BWScale:   1,
		Buffers:   bench.SameBuffers,
		Summary:   "pairs (i, i+np/2) stream windows of messages one way",
	})
}
