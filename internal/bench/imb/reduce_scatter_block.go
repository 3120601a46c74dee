package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Reduce_scatter_block",
		Kernel:    kernel.ReduceScatterBlock,
		Family:    Collective,
		Default:   true,
		Order:     9,
		TimeScale: 1,
		Reduction: true,
		Split:     true,
		Buffers:   reduceScatterBuffers,
		Cost:      bench.CostReduceScatter,
		Summary:   "MPI_Reduce_scatter_block (MPI_SUM), size bytes of the result to each rank",
	})
}
