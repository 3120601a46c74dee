package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "PingPing",
		Op:      kernel.P2PPingPing,
		Order:   2,
		Kind:    PerIteration,
		Valid:   pairs,
		Invalid: isInvalid,
		Buffers: 1,
		Latency: true,
		Summary: "MPI_Irecv, MPI_Send, MPI_Wait both ways between rank i and i + np/2, every pair at once",
	})
}
