package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Get_all_local",
		IMBRMAOp: kernel.IMBRMAGetAllLocal,
		Family:   MultPassive,
		Batched:  true,
		Summary:  "MPI_Get by rank 0 from every other rank each repetition, one MPI_Win_flush_local_all for all",
	})
}
