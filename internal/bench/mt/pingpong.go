package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "PingPongMT",
		Op:      kernel.MTPingPong,
		Order:   1,
		Format:  PointToPoint,
		Pairs:   true,
		Divide:  2,
		BWScale: 1,
		Latency: true,
		Summary: "MPI_Send and MPI_Recv, and back, between rank i and i + stride, every thread on its own communicator (t: half a round trip)",
	})
}
