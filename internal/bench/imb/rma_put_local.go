package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Put_local",
		IMBRMAOp: kernel.IMBRMAPutLocal,
		Default:  true,
		Order:    5,
		Family:   SingleTransfer,
		Modes:    true,
		Summary:  "MPI_Put from rank 0 to rank 1 completed locally, MPI_Win_flush_local per put (aggregate: one for all)",
	})
}
