package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:      "Accumulate",
		EXTOp:     kernel.EXTAccumulate,
		Order:     6,
		Family:    Collective,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Accumulate (MPI_SUM) of size bytes from every rank into rank 0's window, with fences",
	})
}
