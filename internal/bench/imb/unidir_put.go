package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:       "Unidir_Put",
		EXTOp:      kernel.EXTUnidirPut,
		Order:      3,
		Family:     SingleTransfer,
		Modes:      true,
		BWScale:    1,
		Directions: 1,
		Summary:    "MPI_Put: rank 0 puts size bytes to rank 1, with MPI_Win_fence (aggregate: one for all)",
	})
}
