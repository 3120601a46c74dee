package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:      "Accumulate",
		IMBRMAOp:  kernel.IMBRMAAccumulate,
		Default:   true,
		Order:     13,
		Family:    SingleTransfer,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Accumulate (MPI_SUM) of size bytes from rank 0 into rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	})
}
