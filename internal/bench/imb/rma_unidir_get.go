package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:       "Unidir_get",
		IMBRMAOp:   kernel.IMBRMAUnidirGet,
		Default:    true,
		Order:      3,
		Family:     SingleTransfer,
		Modes:      true,
		Directions: 1,
		Summary:    "MPI_Get: rank 0 reads size bytes from rank 1's window, MPI_Win_flush per get (aggregate: one for all)",
	})
}
