package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "Unirandom",
		Op:      kernel.P2PUnirandom,
		Order:   3,
		Kind:    Counted,
		Valid:   twoOrMore,
		Invalid: invalidNoIs,
		Buffers: 1,
		Latency: false,
		Summary: "np random pairs (IMB generator) an iteration, one of each pair sends to the other (MPI_Send, MPI_Recv)",
	})
}
