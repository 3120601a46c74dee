package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Bidir_get",
		IMBRMAOp: kernel.IMBRMABidirGet,
		Default:  true,
		Order:    4,
		Family:   SingleTransfer,
		Modes:    true,
		Summary:  "MPI_Get: both ranks read size bytes from each other's window, MPI_Win_flush per get (aggregate: one for all)",
	})
}
