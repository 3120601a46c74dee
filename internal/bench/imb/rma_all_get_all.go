package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "All_get_all",
		IMBRMAOp: kernel.IMBRMAAllGetAll,
		Default:  true,
		Order:    10,
		Family:   Collective,
		Batched:  true,
		Summary:  "MPI_Get by every rank from every other rank each repetition, one MPI_Win_flush_all for all",
	})
}
