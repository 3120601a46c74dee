package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// extTable is IMB-EXT's benchmarks in its own order (IMB 2021 src_c/IMB_benchlist.c, all of
// them its default list), pure data: a benchmark's position here is its place in the list.
var extTable = []*Spec{
	{
		Name:    "Window",
		EXTPart: EXTPart{EXTOp: kernel.EXTWindow},
		// IMB times it as a collective and counts its sizes in the
		// reduction type; its repetitions are -iter's msgs_nonaggr
		Family:    Collective,
		Reduction: true,
		NonAggr:   true,
		Summary:   "MPI_Win_create of size bytes, fence, a put to oneself, fence, MPI_Win_free",
	},
	{
		Name:    "Unidir_Get",
		EXTPart: EXTPart{EXTOp: kernel.EXTUnidirGet},
		Family:  SingleTransfer,
		Modes:   true,
		BWScale: 1,
		Interp:  Interp{Directions: 1},
		Summary: "MPI_Get: rank 1 gets size bytes from rank 0, with MPI_Win_fence (aggregate: one for all)",
	},
	{
		Name:    "Unidir_Put",
		EXTPart: EXTPart{EXTOp: kernel.EXTUnidirPut},
		Family:  SingleTransfer,
		Modes:   true,
		BWScale: 1,
		Interp:  Interp{Directions: 1},
		Summary: "MPI_Put: rank 0 puts size bytes to rank 1, with MPI_Win_fence (aggregate: one for all)",
	},
	{
		Name:    "Bidir_Get",
		EXTPart: EXTPart{EXTOp: kernel.EXTBidirGet},
		Family:  SingleTransfer,
		Modes:   true,
		BWScale: 1,
		Interp:  Interp{Directions: 2},
		Summary: "MPI_Get: both ranks get size bytes from each other, with MPI_Win_fence (aggregate: one for all)",
	},
	{
		Name:    "Bidir_Put",
		EXTPart: EXTPart{EXTOp: kernel.EXTBidirPut},
		Family:  SingleTransfer,
		Modes:   true,
		BWScale: 1,
		Interp:  Interp{Directions: 2},
		Summary: "MPI_Put: both ranks put size bytes to each other, with MPI_Win_fence (aggregate: one for all)",
	},
	{
		Name:      "Accumulate",
		EXTPart:   EXTPart{EXTOp: kernel.EXTAccumulate},
		Family:    Collective,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Accumulate (MPI_SUM) of size bytes from every rank into rank 0's window, with fences",
	},
}

func init() { registerTable(extTable, registerEXT) }
