package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "PingPingMT",
		Op:      kernel.MTPingPing,
		Order:   2,
		Format:  PointToPoint,
		Pairs:   true,
		Divide:  1,
		BWScale: 1,
		Latency: true,
		Summary: "MPI_Isend, MPI_Recv, MPI_Wait both ways between rank i and i + stride, every thread on its own communicator",
	})
}
