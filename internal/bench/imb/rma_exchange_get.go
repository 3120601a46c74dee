package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Exchange_get",
		IMBRMAOp: kernel.IMBRMAExchangeGet,
		Default:  true,
		Order:    12,
		Family:   Collective,
		Buffers:  twiceBuffers,
		Summary:  "MPI_Get of size bytes from both neighbours in a ring, MPI_Win_flush of both per repetition",
	})
}
