package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Bidir_put",
		IMBRMAOp: kernel.IMBRMABidirPut,
		Default:  true,
		Order:    2,
		Family:   SingleTransfer,
		Modes:    true,
		Summary:  "MPI_Put: both ranks put size bytes into each other's window, MPI_Win_flush per put (aggregate: one for all)",
	})
}
