package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// reduceScatterBuffers: np blocks in, one block of the result out.
func reduceScatterBuffers(size int64, np int) (int64, int64) { return int64(np) * size, size }

func init() {
	Register(&Spec{
		Suite:     Suite,
		Name:      "Reduce_scatter",
		Kernel:    kernel.ReduceScatter,
		Family:    Collective,
		Default:   true,
		Order:     8,
		TimeScale: 1,
		Reduction: true,
		Split:     true,
		Buffers:   reduceScatterBuffers,
		Bus:       bench.BusReduceScatter,
		Cost:      bench.CostReduceScatter,
		Summary:   "MPI_Reduce_scatter (MPI_SUM), size bytes of the result to each rank",
	})
}
