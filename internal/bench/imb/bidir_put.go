package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:       "Bidir_Put",
		EXTOp:      kernel.EXTBidirPut,
		Order:      5,
		Family:     SingleTransfer,
		Modes:      true,
		BWScale:    1,
		Directions: 2,
		Summary:    "MPI_Put: both ranks put size bytes to each other, with MPI_Win_fence (aggregate: one for all)",
	})
}
