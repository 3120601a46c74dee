package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "SendRecv_Replace",
		Op:      kernel.P2PSendRecvReplace,
		Order:   8,
		Kind:    PerIteration,
		Valid:   twoOrMore,
		Invalid: invalidProcess,
		Buffers: 1,
		Latency: false,
		Summary: "MPI_Sendrecv_replace to the next rank from the previous, all ranks at once",
	})
}
