package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "One_put_all",
		IMBRMAOp: kernel.IMBRMAOnePutAll,
		Default:  true,
		Order:    7,
		Family:   MultPassive,
		Batched:  true,
		Summary:  "MPI_Put from rank 0 to every other rank each repetition, one MPI_Win_flush_all for all",
	})
}
