package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "Birandom",
		Op:      kernel.P2PBirandom,
		Order:   4,
		Kind:    Counted,
		Valid:   twoOrMore,
		Invalid: isInvalid,
		Buffers: 1,
		Latency: false,
		Summary: "np random pairs (IMB generator) an iteration, both of each pair send (MPI_Irecv, MPI_Send, MPI_Wait)",
	})
}
