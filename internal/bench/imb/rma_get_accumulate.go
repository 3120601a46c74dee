package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:      "Get_accumulate",
		IMBRMAOp:  kernel.IMBRMAGetAccumulate,
		Default:   true,
		Order:     14,
		Family:    SingleTransfer,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Get_accumulate (MPI_SUM) of size bytes from rank 0 into rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	})
}
