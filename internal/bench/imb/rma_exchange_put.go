package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Exchange_put",
		IMBRMAOp: kernel.IMBRMAExchangePut,
		Default:  true,
		Order:    11,
		Family:   Collective,
		Buffers:  twiceBuffers,
		Summary:  "MPI_Put of size bytes to both neighbours in a ring, MPI_Win_flush of both per repetition",
	})
}
