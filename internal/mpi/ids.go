//go:build cgo

package mpi

/*
#include "gomb.h"
*/
import "C"

import "github.com/gomb-hpc/gomb/internal/kernel"

// The Go names of the C layer's enumerations (package kernel, cgo-free)
// must have the values gomb.h gives them: each line below fails to compile
// (an index out of range, or negative) when the two differ. kernel.Count
// against GOMB_K_COUNT keeps the kernels one for one; TestEnumsCovered
// fails when gomb.h has an enumerator that no line here names.
func _() {
	var x [1]struct{}
	_ = x[kernel.None-C.GOMB_K_NONE]
	_ = x[kernel.PingPong-C.GOMB_K_PINGPONG]
	_ = x[kernel.PingPing-C.GOMB_K_PINGPING]
	_ = x[kernel.Sendrecv-C.GOMB_K_SENDRECV]
	_ = x[kernel.Exchange-C.GOMB_K_EXCHANGE]
	_ = x[kernel.Uniband-C.GOMB_K_UNIBAND]
	_ = x[kernel.Biband-C.GOMB_K_BIBAND]
	_ = x[kernel.Barrier-C.GOMB_K_BARRIER]
	_ = x[kernel.Bcast-C.GOMB_K_BCAST]
	_ = x[kernel.Scatter-C.GOMB_K_SCATTER]
	_ = x[kernel.Scatterv-C.GOMB_K_SCATTERV]
	_ = x[kernel.Gather-C.GOMB_K_GATHER]
	_ = x[kernel.Gatherv-C.GOMB_K_GATHERV]
	_ = x[kernel.Allgather-C.GOMB_K_ALLGATHER]
	_ = x[kernel.Allgatherv-C.GOMB_K_ALLGATHERV]
	_ = x[kernel.Reduce-C.GOMB_K_REDUCE]
	_ = x[kernel.ReduceLocal-C.GOMB_K_REDUCE_LOCAL]
	_ = x[kernel.ReduceScatter-C.GOMB_K_REDUCE_SCATTER]
	_ = x[kernel.ReduceScatterBlock-C.GOMB_K_REDUCE_SCATTER_BLOCK]
	_ = x[kernel.Allreduce-C.GOMB_K_ALLREDUCE]
	_ = x[kernel.Alltoall-C.GOMB_K_ALLTOALL]
	_ = x[kernel.Alltoallv-C.GOMB_K_ALLTOALLV]
	_ = x[kernel.BarrierCalls-C.GOMB_K_BARRIER_CALLS]
	_ = x[kernel.ReduceScatterSplit-C.GOMB_K_REDUCE_SCATTER_SPLIT]
	_ = x[kernel.OSULatency-C.GOMB_K_OSU_LATENCY]
	_ = x[kernel.OSUBw-C.GOMB_K_OSU_BW]
	_ = x[kernel.OSUBibw-C.GOMB_K_OSU_BIBW]
	_ = x[kernel.RMA-C.GOMB_K_RMA]
	_ = x[kernel.NBC-C.GOMB_K_NBC]
	_ = x[kernel.Ring-C.GOMB_K_RING]
	_ = x[kernel.Memcpy-C.GOMB_K_MEMCPY]
	_ = x[kernel.OneWay-C.GOMB_K_ONEWAY]
	_ = x[kernel.IMBNBC-C.GOMB_K_IMB_NBC]
	_ = x[kernel.IMBEXT-C.GOMB_K_IMB_EXT]
	_ = x[kernel.IMBRMA-C.GOMB_K_IMB_RMA]
	_ = x[kernel.IMBP2P-C.GOMB_K_IMB_P2P]
	_ = x[kernel.Count-C.GOMB_K_COUNT]

	_ = x[kernel.Byte-C.GOMB_DT_BYTE]
	_ = x[kernel.Char-C.GOMB_DT_CHAR]
	_ = x[kernel.Int-C.GOMB_DT_INT]
	_ = x[kernel.Float-C.GOMB_DT_FLOAT]
	_ = x[kernel.Double-C.GOMB_DT_DOUBLE]
	_ = x[kernel.LongLong-C.GOMB_DT_LONG_LONG]
	_ = x[kernel.Float16-C.GOMB_DT_FLOAT16]
	_ = x[kernel.BFloat16-C.GOMB_DT_BFLOAT16]
	_ = x[kernel.DatatypeCount-C.GOMB_DT_COUNT]

	_ = x[kernel.SourceSpecificAnyTag-C.GOMB_SRC_SPECIFIC_ANYTAG]
	_ = x[kernel.SourceSpecific-C.GOMB_SRC_SPECIFIC]
	_ = x[kernel.SourceAny-C.GOMB_SRC_ANY]

	_ = x[kernel.BuffersPage-C.GOMB_BUF_PAGE]
	_ = x[kernel.BuffersIMB-C.GOMB_BUF_IMB]
	_ = x[kernel.BuffersMalloc-C.GOMB_BUF_MALLOC]

	_ = x[kernel.RMAPut-C.GOMB_RMA_PUT]
	_ = x[kernel.RMAGet-C.GOMB_RMA_GET]
	_ = x[kernel.RMAAcc-C.GOMB_RMA_ACC]
	_ = x[kernel.RMAGetAcc-C.GOMB_RMA_GET_ACC]
	_ = x[kernel.RMAFetchOp-C.GOMB_RMA_FOP]
	_ = x[kernel.RMACompareSwap-C.GOMB_RMA_CAS]
	_ = x[kernel.RMALatency-C.GOMB_RMA_LAT]
	_ = x[kernel.RMABandwidth-C.GOMB_RMA_BW]
	_ = x[kernel.RMABiBandwidth-C.GOMB_RMA_BIBW]
	_ = x[kernel.WinCreate-C.GOMB_WIN_CREATE]
	_ = x[kernel.WinAllocate-C.GOMB_WIN_ALLOCATE]
	_ = x[kernel.WinDynamic-C.GOMB_WIN_DYNAMIC]
	_ = x[kernel.SyncLock-C.GOMB_SYNC_LOCK]
	_ = x[kernel.SyncFlush-C.GOMB_SYNC_FLUSH]
	_ = x[kernel.SyncFlushLocal-C.GOMB_SYNC_FLUSH_LOCAL]
	_ = x[kernel.SyncLockAll-C.GOMB_SYNC_LOCK_ALL]
	_ = x[kernel.SyncPSCW-C.GOMB_SYNC_PSCW]
	_ = x[kernel.SyncFence-C.GOMB_SYNC_FENCE]

	_ = x[kernel.NBCIbarrier-C.GOMB_NBC_IBARRIER]
	_ = x[kernel.NBCIbcast-C.GOMB_NBC_IBCAST]
	_ = x[kernel.NBCIreduce-C.GOMB_NBC_IREDUCE]
	_ = x[kernel.NBCIallreduce-C.GOMB_NBC_IALLREDUCE]
	_ = x[kernel.NBCIgather-C.GOMB_NBC_IGATHER]
	_ = x[kernel.NBCIscatter-C.GOMB_NBC_ISCATTER]
	_ = x[kernel.NBCIallgather-C.GOMB_NBC_IALLGATHER]
	_ = x[kernel.NBCIalltoall-C.GOMB_NBC_IALLTOALL]
	_ = x[kernel.NBCIgatherv-C.GOMB_NBC_IGATHERV]
	_ = x[kernel.NBCIscatterv-C.GOMB_NBC_ISCATTERV]
	_ = x[kernel.NBCIallgatherv-C.GOMB_NBC_IALLGATHERV]
	_ = x[kernel.NBCIalltoallv-C.GOMB_NBC_IALLTOALLV]
	_ = x[kernel.NBCIreduceScatter-C.GOMB_NBC_IREDUCE_SCATTER]

	_ = x[kernel.EXTWindow-C.GOMB_EXT_WINDOW]
	_ = x[kernel.EXTUnidirPut-C.GOMB_EXT_UNIDIR_PUT]
	_ = x[kernel.EXTUnidirGet-C.GOMB_EXT_UNIDIR_GET]
	_ = x[kernel.EXTBidirPut-C.GOMB_EXT_BIDIR_PUT]
	_ = x[kernel.EXTBidirGet-C.GOMB_EXT_BIDIR_GET]
	_ = x[kernel.EXTAccumulate-C.GOMB_EXT_ACCUMULATE]
	_ = x[kernel.IMBRMAUnidirPut-C.GOMB_IRMA_UNIDIR_PUT]
	_ = x[kernel.IMBRMABidirPut-C.GOMB_IRMA_BIDIR_PUT]
	_ = x[kernel.IMBRMAUnidirGet-C.GOMB_IRMA_UNIDIR_GET]
	_ = x[kernel.IMBRMABidirGet-C.GOMB_IRMA_BIDIR_GET]
	_ = x[kernel.IMBRMAPutLocal-C.GOMB_IRMA_PUT_LOCAL]
	_ = x[kernel.IMBRMAGetLocal-C.GOMB_IRMA_GET_LOCAL]
	_ = x[kernel.IMBRMAPutAllLocal-C.GOMB_IRMA_PUT_ALL_LOCAL]
	_ = x[kernel.IMBRMAGetAllLocal-C.GOMB_IRMA_GET_ALL_LOCAL]
	_ = x[kernel.IMBRMAOnePutAll-C.GOMB_IRMA_ONE_PUT_ALL]
	_ = x[kernel.IMBRMAAllPutAll-C.GOMB_IRMA_ALL_PUT_ALL]
	_ = x[kernel.IMBRMAOneGetAll-C.GOMB_IRMA_ONE_GET_ALL]
	_ = x[kernel.IMBRMAAllGetAll-C.GOMB_IRMA_ALL_GET_ALL]
	_ = x[kernel.IMBRMAExchangePut-C.GOMB_IRMA_EXCHANGE_PUT]
	_ = x[kernel.IMBRMAExchangeGet-C.GOMB_IRMA_EXCHANGE_GET]
	_ = x[kernel.IMBRMAAccumulate-C.GOMB_IRMA_ACCUMULATE]
	_ = x[kernel.IMBRMAGetAccumulate-C.GOMB_IRMA_GET_ACCUMULATE]
	_ = x[kernel.IMBRMAFetchAndOp-C.GOMB_IRMA_FETCH_AND_OP]
	_ = x[kernel.IMBRMACompareAndSwap-C.GOMB_IRMA_COMPARE_AND_SWAP]
	_ = x[kernel.IMBRMATrulyPassivePut-C.GOMB_IRMA_TRULY_PASSIVE_PUT]
	_ = x[kernel.P2PPingPong-C.GOMB_P2P_PINGPONG]
	_ = x[kernel.P2PPingPing-C.GOMB_P2P_PINGPING]
	_ = x[kernel.P2PUnirandom-C.GOMB_P2P_UNIRANDOM]
	_ = x[kernel.P2PBirandom-C.GOMB_P2P_BIRANDOM]
	_ = x[kernel.P2PCorandom-C.GOMB_P2P_CORANDOM]
	_ = x[kernel.P2PStencil2D-C.GOMB_P2P_STENCIL2D]
	_ = x[kernel.P2PStencil3D-C.GOMB_P2P_STENCIL3D]
	_ = x[kernel.P2PSendRecvReplace-C.GOMB_P2P_SENDRECV_REPLACE]
}

// dispatched reports whether gomb_run has a kernel family for k.
func dispatched(k kernel.ID) bool { return C.gomb_kernel_dispatched(C.int(k)) != 0 }
