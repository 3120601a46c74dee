package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// rmaTable is IMB-RMA's benchmarks, its default list first in its own order (IMB 2021
// src_c/IMB_benchlist.c), then the others, pure data: a default benchmark's position
// here is its place in the list.
var rmaTable = []*Spec{
	{
		Name:    "Unidir_put",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAUnidirPut},
		Default: true,
		Family:  SingleTransfer,
		Modes:   true,
		Interp:  Interp{Directions: 1},
		Summary: "MPI_Put: rank 0 puts size bytes into rank 1's window under a shared lock, MPI_Win_flush per put (aggregate: one for all)",
	},
	{
		Name:    "Bidir_put",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMABidirPut},
		Default: true,
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_Put: both ranks put size bytes into each other's window, MPI_Win_flush per put (aggregate: one for all)",
	},
	{
		Name:    "Unidir_get",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAUnidirGet},
		Default: true,
		Family:  SingleTransfer,
		Modes:   true,
		Interp:  Interp{Directions: 1},
		Summary: "MPI_Get: rank 0 reads size bytes from rank 1's window, MPI_Win_flush per get (aggregate: one for all)",
	},
	{
		Name:    "Bidir_get",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMABidirGet},
		Default: true,
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_Get: both ranks read size bytes from each other's window, MPI_Win_flush per get (aggregate: one for all)",
	},
	{
		Name:    "Put_local",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAPutLocal},
		Default: true,
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_Put from rank 0 to rank 1 completed locally, MPI_Win_flush_local per put (aggregate: one for all)",
	},
	{
		Name:    "Put_all_local",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAPutAllLocal, Batched: true},
		Default: true,
		Family:  MultPassive,
		Summary: "MPI_Put from rank 0 to every other rank each repetition, one MPI_Win_flush_local_all for all",
	},
	{
		Name:    "One_put_all",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAOnePutAll, Batched: true},
		Default: true,
		Family:  MultPassive,
		Summary: "MPI_Put from rank 0 to every other rank each repetition, one MPI_Win_flush_all for all",
	},
	{
		Name:    "All_put_all",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAAllPutAll, Batched: true},
		Default: true,
		Family:  Collective,
		Summary: "MPI_Put from every rank to every other rank each repetition, one MPI_Win_flush_all for all",
	},
	{
		Name:    "One_get_all",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAOneGetAll, Batched: true},
		Default: true,
		Family:  MultPassive,
		Summary: "MPI_Get by rank 0 from every other rank each repetition, one MPI_Win_flush_all for all",
	},
	{
		Name:    "All_get_all",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAAllGetAll, Batched: true},
		Default: true,
		Family:  Collective,
		Summary: "MPI_Get by every rank from every other rank each repetition, one MPI_Win_flush_all for all",
	},
	{
		Name:    "Exchange_put",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAExchangePut},
		Default: true,
		Family:  Collective,
		Buffers: twiceBuffers,
		Summary: "MPI_Put of size bytes to both neighbours in a ring, MPI_Win_flush of both per repetition",
	},
	{
		Name:    "Exchange_get",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAExchangeGet},
		Default: true,
		Family:  Collective,
		Buffers: twiceBuffers,
		Summary: "MPI_Get of size bytes from both neighbours in a ring, MPI_Win_flush of both per repetition",
	},
	{
		Name:      "Accumulate",
		RMAPart:   RMAPart{IMBRMAOp: kernel.IMBRMAAccumulate},
		Default:   true,
		Family:    SingleTransfer,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Accumulate (MPI_SUM) of size bytes from rank 0 into rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	},
	{
		Name:      "Get_accumulate",
		RMAPart:   RMAPart{IMBRMAOp: kernel.IMBRMAGetAccumulate},
		Default:   true,
		Family:    SingleTransfer,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Get_accumulate (MPI_SUM) of size bytes from rank 0 into rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	},
	{
		Name:      "Fetch_and_op",
		RMAPart:   RMAPart{IMBRMAOp: kernel.IMBRMAFetchAndOp, OneElement: true},
		Default:   true,
		Family:    SingleTransfer,
		Modes:     true,
		Reduction: true,
		Summary:   "MPI_Fetch_and_op (MPI_SUM) of one float from rank 0 on rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	},
	{
		Name:     "Compare_and_swap",
		RMAPart:  RMAPart{IMBRMAOp: kernel.IMBRMACompareAndSwap, OneElement: true},
		Default:  true,
		Family:   SingleTransfer,
		Modes:    true,
		Buffers:  casBuffers,
		Comments: []string{"Uses MPI_INT data type"},
		Summary:  "MPI_Compare_and_swap of one int from rank 0 on rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	},
	{
		Name:    "Truly_passive_put",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMATrulyPassivePut, Passive: true},
		Default: true,
		Family:  SingleTransfer,
		Comments: []string{
			"The benchmark measures execution time of MPI_Put for 2 cases:",
			"1) The target is waiting in MPI_Barrier call (t_pure value)",
			"2) The target performs computation and then enters MPI_Barrier routine (t_ovrl value)",
		},
		Summary: "MPI_Put + MPI_Win_flush + MPI_Barrier from rank 0 to rank 1, with rank 1 in MPI_Barrier (t_pure), then computing first (t_ovrl)",
	},
	{
		Name:    "Get_all_local",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAGetAllLocal, Batched: true},
		Family:  MultPassive,
		Summary: "MPI_Get by rank 0 from every other rank each repetition, one MPI_Win_flush_local_all for all",
	},
	{
		Name:    "Get_local",
		RMAPart: RMAPart{IMBRMAOp: kernel.IMBRMAGetLocal},
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_Get by rank 0 from rank 1 completed locally, MPI_Win_flush_local per get (aggregate: one for all)",
	},
}

func init() { registerTable(rmaTable, registerRMA) }

// casBuffers: the origin's values (result, compare, origin) are three ints
// of its receive buffer (IMB's RECVBUF_SIZE_3I).
func casBuffers(size int64, _ int) (int64, int64) { return size, 3 * size }
