package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Get_local",
		IMBRMAOp: kernel.IMBRMAGetLocal,
		Family:   SingleTransfer,
		Modes:    true,
		Summary:  "MPI_Get by rank 0 from rank 1 completed locally, MPI_Win_flush_local per get (aggregate: one for all)",
	})
}
