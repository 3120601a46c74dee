package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:       "Unidir_Get",
		EXTOp:      kernel.EXTUnidirGet,
		Order:      2,
		Family:     SingleTransfer,
		Modes:      true,
		BWScale:    1,
		Directions: 1,
		Summary:    "MPI_Get: rank 1 gets size bytes from rank 0, with MPI_Win_fence (aggregate: one for all)",
	})
}
