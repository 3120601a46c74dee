package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:      "ExchangeMT",
		Op:        kernel.MTExchange,
		Order:     4,
		Format:    PointToPoint,
		Divide:    1,
		BWScale:   4,
		RecvTwice: true,
		Summary:   "MPI_Isend to both ring neighbours, MPI_Recv from both, MPI_Waitall, every thread on its own communicator",
	})
}
