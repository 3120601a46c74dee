package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Put_all_local",
		IMBRMAOp: kernel.IMBRMAPutAllLocal,
		Default:  true,
		Order:    6,
		Family:   MultPassive,
		Batched:  true,
		Summary:  "MPI_Put from rank 0 to every other rank each repetition, one MPI_Win_flush_local_all for all",
	})
}
