package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:       "Fetch_and_op",
		IMBRMAOp:   kernel.IMBRMAFetchAndOp,
		Default:    true,
		Order:      15,
		Family:     SingleTransfer,
		Modes:      true,
		Reduction:  true,
		OneElement: true,
		Summary:    "MPI_Fetch_and_op (MPI_SUM) of one float from rank 0 on rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	})
}
