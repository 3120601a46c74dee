package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:       "Bidir_Get",
		EXTOp:      kernel.EXTBidirGet,
		Order:      4,
		Family:     SingleTransfer,
		Modes:      true,
		BWScale:    1,
		Directions: 2,
		Summary:    "MPI_Get: both ranks get size bytes from each other, with MPI_Win_fence (aggregate: one for all)",
	})
}
