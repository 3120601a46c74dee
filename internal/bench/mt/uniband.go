package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "UniBandMT",
		Op:      kernel.MTUniBand,
		Order:   5,
		Format:  Band,
		Pairs:   true,
		Divide:  1,
		Window:  true,
		BWScale: 1,
		Summary: "a window of MPI_Isend from rank i to i + stride, MPI_Waitall, a 1-byte ack; every thread on its own communicator",
	})
}
