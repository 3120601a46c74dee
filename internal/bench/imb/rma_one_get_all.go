package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "One_get_all",
		IMBRMAOp: kernel.IMBRMAOneGetAll,
		Default:  true,
		Order:    9,
		Family:   MultPassive,
		Batched:  true,
		Summary:  "MPI_Get by rank 0 from every other rank each repetition, one MPI_Win_flush_all for all",
	})
}
