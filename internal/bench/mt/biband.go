package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "BiBandMT",
		Op:      kernel.MTBiBand,
		Order:   6,
		Format:  Band,
		Pairs:   true,
		Divide:  2,
		Window:  true,
		BWScale: 1,
		Summary: "windows of MPI_Irecv and MPI_Isend both ways between rank i and i + stride, MPI_Waitall, an ack; every thread",
	})
}
