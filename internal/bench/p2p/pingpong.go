package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "PingPong",
		Op:      kernel.P2PPingPong,
		Order:   1,
		Kind:    RoundTrip,
		Valid:   pairs,
		Invalid: isInvalid,
		Buffers: 1,
		Latency: true,
		Summary: "MPI_Send and MPI_Recv between rank i and i + np/2, every pair at once (t: half a round trip)",
	})
}
