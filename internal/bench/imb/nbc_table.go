package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// nbcTable is IMB-NBC's collectives in its default list's order (IMB 2021
// src_c/IMB_benchlist.c), pure data: each gives IMB-NBC's two benchmarks
// and IMB-MPI4's two (nbcTwin), and its position here is their place in
// both lists.
var nbcTable = []nbcTwin{
	{
		Name:    "Ibcast",
		Op:      kernel.NBCIbcast,
		Rooted:  true,
		Buffers: SameBuffers,
		Bus:     bench.BusBcast,
		Cost:    bench.CostTree,
		Call:    "MPI_Ibcast of size bytes, the root rotating with -root_shift",
		Init:    "MPI_Bcast_init of size bytes, root 0",
	},
	{
		Name:    "Iallgather",
		Op:      kernel.NBCIallgather,
		Buffers: gatherBuffers,
		Bus:     bench.BusAllgather,
		Cost:    bench.CostAllgather,
		Call:    "MPI_Iallgather, size bytes from each rank",
		Init:    "MPI_Allgather_init, size bytes from each rank",
		// IMB-MPI4 2021.11 runs Allgather_persist only when named
		NotMPI4Default: true,
	},
	{
		Name:    "Iallgatherv",
		Op:      kernel.NBCIallgatherv,
		Buffers: gatherBuffers,
		Cost:    bench.CostAllgather,
		Call:    "MPI_Iallgatherv, size bytes from each rank",
		Init:    "MPI_Allgatherv_init, size bytes from each rank",
	},
	{
		Name:    "Igather",
		Op:      kernel.NBCIgather,
		Rooted:  true,
		Buffers: gatherBuffers,
		Cost:    bench.CostGather,
		Call:    "MPI_Igather, size bytes from each rank to the root",
		Init:    "MPI_Gather_init, size bytes from each rank to root 0",
	},
	{
		Name:    "Igatherv",
		Op:      kernel.NBCIgatherv,
		Rooted:  true,
		Buffers: gatherBuffers,
		Cost:    bench.CostGather,
		Call:    "MPI_Igatherv, size bytes from each rank to the root",
		Init:    "MPI_Gatherv_init, size bytes from each rank to root 0",
	},
	{
		Name:    "Iscatter",
		Op:      kernel.NBCIscatter,
		Rooted:  true,
		Buffers: scatterBuffers,
		Cost:    bench.CostGather,
		Call:    "MPI_Iscatter, size bytes from the root to each rank",
		Init:    "MPI_Scatter_init, size bytes from root 0 to each rank",
	},
	{
		Name:    "Iscatterv",
		Op:      kernel.NBCIscatterv,
		Rooted:  true,
		Buffers: scatterBuffers,
		Cost:    bench.CostGather,
		Call:    "MPI_Iscatterv, size bytes from the root to each rank",
		Init:    "MPI_Scatterv_init, size bytes from root 0 to each rank",
	},
	{
		Name:    "Ialltoall",
		Op:      kernel.NBCIalltoall,
		Buffers: alltoallBuffers,
		Bus:     bench.BusAlltoall,
		Cost:    bench.CostAlltoall,
		Call:    "MPI_Ialltoall, size bytes between every pair",
		Init:    "MPI_Alltoall_init, size bytes between every pair",
	},
	{
		Name:    "Ialltoallv",
		Op:      kernel.NBCIalltoallv,
		Buffers: alltoallBuffers,
		Cost:    bench.CostAlltoall,
		Call:    "MPI_Ialltoallv, size bytes between every pair",
		Init:    "MPI_Alltoallv_init, size bytes between every pair",
	},
	{
		Name:      "Ireduce",
		Op:        kernel.NBCIreduce,
		Reduction: true,
		Rooted:    true,
		Buffers:   SameBuffers,
		Cost:      bench.CostTree,
		Call:      "MPI_Ireduce (MPI_SUM) of size bytes",
		Init:      "MPI_Reduce_init (MPI_SUM) of size bytes, root 0",
	},
	{
		Name:      "Ireduce_scatter",
		Op:        kernel.NBCIreduceScatter,
		Reduction: true,
		Buffers:   reduceScatterBuffers,
		Bus:       bench.BusReduceScatter,
		Cost:      bench.CostReduceScatter,
		Call:      "MPI_Ireduce_scatter (MPI_SUM), size bytes of the result to each rank",
		Init:      "MPI_Reduce_scatter_init (MPI_SUM), size bytes of the result to each rank",
	},
	{
		Name:      "Iallreduce",
		Op:        kernel.NBCIallreduce,
		Reduction: true,
		Buffers:   SameBuffers,
		Bus:       bench.BusAllreduce,
		Cost:      bench.CostTree,
		Call:      "MPI_Iallreduce (MPI_SUM) of size bytes",
		Init:      "MPI_Allreduce_init (MPI_SUM) of size bytes",
	},
	{
		Name:    "Ibarrier",
		Op:      kernel.NBCIbarrier,
		Buffers: noBuffers,
		Cost:    bench.CostBarrier,
		Call:    "MPI_Ibarrier",
		Init:    "MPI_Barrier_init",
	},
}

func init() {
	for i, t := range nbcTable {
		registerNBC(t, i+1)
	}
}
