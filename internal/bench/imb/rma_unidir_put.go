package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:       "Unidir_put",
		IMBRMAOp:   kernel.IMBRMAUnidirPut,
		Default:    true,
		Order:      1,
		Family:     SingleTransfer,
		Modes:      true,
		Directions: 1,
		Summary:    "MPI_Put: rank 0 puts size bytes into rank 1's window under a shared lock, MPI_Win_flush per put (aggregate: one for all)",
	})
}
