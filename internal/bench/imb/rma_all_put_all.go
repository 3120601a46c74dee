package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "All_put_all",
		IMBRMAOp: kernel.IMBRMAAllPutAll,
		Default:  true,
		Order:    8,
		Family:   Collective,
		Batched:  true,
		Summary:  "MPI_Put from every rank to every other rank each repetition, one MPI_Win_flush_all for all",
	})
}
