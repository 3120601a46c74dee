package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Alltoallv",
		Kernel:    kernel.Alltoallv,
		Family:    Collective,
		Default:   true,
		Order:     17,
		TimeScale: 1,
		Buffers:   alltoallBuffers,
		Cost:      bench.CostAlltoall,
		Summary:   "MPI_Alltoallv, size bytes between every pair of ranks",
	})
}
