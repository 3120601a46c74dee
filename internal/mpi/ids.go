//go:build cgo

package mpi

/*
#include "gomb.h"
*/
import "C"

import "github.com/gomb-hpc/gomb/internal/kernel"

// The Go names of the C layer's enumerations (package kernel, cgo-free)
// must have the values gomb.h gives them: each line below fails to compile
// (an index out of range, or negative) when the two differ, one function
// an enumeration's header. TestEnumsCovered fails when gomb.h has an
// enumerator that no line here names.
var one [1]struct{}

// The kernels (gomb.h's GOMB_K_*; kernel.Count against GOMB_K_COUNT keeps them one
// for one).
func _() {
	_ = one[kernel.None-C.GOMB_K_NONE]
	_ = one[kernel.PingPong-C.GOMB_K_PINGPONG]
	_ = one[kernel.PingPing-C.GOMB_K_PINGPING]
	_ = one[kernel.Sendrecv-C.GOMB_K_SENDRECV]
	_ = one[kernel.Exchange-C.GOMB_K_EXCHANGE]
	_ = one[kernel.Uniband-C.GOMB_K_UNIBAND]
	_ = one[kernel.Biband-C.GOMB_K_BIBAND]
	_ = one[kernel.Barrier-C.GOMB_K_BARRIER]
	_ = one[kernel.Bcast-C.GOMB_K_BCAST]
	_ = one[kernel.Scatter-C.GOMB_K_SCATTER]
	_ = one[kernel.Scatterv-C.GOMB_K_SCATTERV]
	_ = one[kernel.Gather-C.GOMB_K_GATHER]
	_ = one[kernel.Gatherv-C.GOMB_K_GATHERV]
	_ = one[kernel.Allgather-C.GOMB_K_ALLGATHER]
	_ = one[kernel.Allgatherv-C.GOMB_K_ALLGATHERV]
	_ = one[kernel.Reduce-C.GOMB_K_REDUCE]
	_ = one[kernel.ReduceLocal-C.GOMB_K_REDUCE_LOCAL]
	_ = one[kernel.ReduceScatter-C.GOMB_K_REDUCE_SCATTER]
	_ = one[kernel.ReduceScatterBlock-C.GOMB_K_REDUCE_SCATTER_BLOCK]
	_ = one[kernel.Allreduce-C.GOMB_K_ALLREDUCE]
	_ = one[kernel.Alltoall-C.GOMB_K_ALLTOALL]
	_ = one[kernel.Alltoallv-C.GOMB_K_ALLTOALLV]
	_ = one[kernel.BarrierCalls-C.GOMB_K_BARRIER_CALLS]
	_ = one[kernel.ReduceScatterSplit-C.GOMB_K_REDUCE_SCATTER_SPLIT]
	_ = one[kernel.OSULatency-C.GOMB_K_OSU_LATENCY]
	_ = one[kernel.OSUBw-C.GOMB_K_OSU_BW]
	_ = one[kernel.OSUBibw-C.GOMB_K_OSU_BIBW]
	_ = one[kernel.RMA-C.GOMB_K_RMA]
	_ = one[kernel.NBC-C.GOMB_K_NBC]
	_ = one[kernel.Ring-C.GOMB_K_RING]
	_ = one[kernel.Memcpy-C.GOMB_K_MEMCPY]
	_ = one[kernel.OneWay-C.GOMB_K_ONEWAY]
	_ = one[kernel.IMBNBC-C.GOMB_K_IMB_NBC]
	_ = one[kernel.IMBEXT-C.GOMB_K_IMB_EXT]
	_ = one[kernel.IMBRMA-C.GOMB_K_IMB_RMA]
	_ = one[kernel.IMBP2P-C.GOMB_K_IMB_P2P]
	_ = one[kernel.IMBIO-C.GOMB_K_IMB_IO]
	_ = one[kernel.OSUFan-C.GOMB_K_OSU_FAN]
	_ = one[kernel.Alltoallw-C.GOMB_K_ALLTOALLW]
	_ = one[kernel.Neighbor-C.GOMB_K_NEIGHBOR]
	_ = one[kernel.Count-C.GOMB_K_COUNT]
}

// The element types, receive sources and buffer schemes (gomb.h).
func _() {
	_ = one[kernel.Byte-C.GOMB_DT_BYTE]
	_ = one[kernel.Char-C.GOMB_DT_CHAR]
	_ = one[kernel.Int-C.GOMB_DT_INT]
	_ = one[kernel.Float-C.GOMB_DT_FLOAT]
	_ = one[kernel.Double-C.GOMB_DT_DOUBLE]
	_ = one[kernel.LongLong-C.GOMB_DT_LONG_LONG]
	_ = one[kernel.Float16-C.GOMB_DT_FLOAT16]
	_ = one[kernel.BFloat16-C.GOMB_DT_BFLOAT16]
	_ = one[kernel.DatatypeCount-C.GOMB_DT_COUNT]
	_ = one[kernel.SourceSpecificAnyTag-C.GOMB_SRC_SPECIFIC_ANYTAG]
	_ = one[kernel.SourceSpecific-C.GOMB_SRC_SPECIFIC]
	_ = one[kernel.SourceAny-C.GOMB_SRC_ANY]
	_ = one[kernel.BuffersPage-C.GOMB_BUF_PAGE]
	_ = one[kernel.BuffersIMB-C.GOMB_BUF_IMB]
	_ = one[kernel.BuffersMalloc-C.GOMB_BUF_MALLOC]
}

// The OSU's one-sided operations, windows and synchronisations (osu.h).
func _() {
	_ = one[kernel.RMAPut-C.GOMB_RMA_PUT]
	_ = one[kernel.RMAGet-C.GOMB_RMA_GET]
	_ = one[kernel.RMAAcc-C.GOMB_RMA_ACC]
	_ = one[kernel.RMAGetAcc-C.GOMB_RMA_GET_ACC]
	_ = one[kernel.RMAFetchOp-C.GOMB_RMA_FOP]
	_ = one[kernel.RMACompareSwap-C.GOMB_RMA_CAS]
	_ = one[kernel.RMALatency-C.GOMB_RMA_LAT]
	_ = one[kernel.RMABandwidth-C.GOMB_RMA_BW]
	_ = one[kernel.RMABiBandwidth-C.GOMB_RMA_BIBW]
	_ = one[kernel.WinCreate-C.GOMB_WIN_CREATE]
	_ = one[kernel.WinAllocate-C.GOMB_WIN_ALLOCATE]
	_ = one[kernel.WinDynamic-C.GOMB_WIN_DYNAMIC]
	_ = one[kernel.SyncLock-C.GOMB_SYNC_LOCK]
	_ = one[kernel.SyncFlush-C.GOMB_SYNC_FLUSH]
	_ = one[kernel.SyncFlushLocal-C.GOMB_SYNC_FLUSH_LOCAL]
	_ = one[kernel.SyncLockAll-C.GOMB_SYNC_LOCK_ALL]
	_ = one[kernel.SyncPSCW-C.GOMB_SYNC_PSCW]
	_ = one[kernel.SyncFence-C.GOMB_SYNC_FENCE]
}

// The non-blocking collectives (nbc.h) and IMB-IO's access modes (imb_io.h).
func _() {
	_ = one[kernel.NBCIbarrier-C.GOMB_NBC_IBARRIER]
	_ = one[kernel.NBCIbcast-C.GOMB_NBC_IBCAST]
	_ = one[kernel.NBCIreduce-C.GOMB_NBC_IREDUCE]
	_ = one[kernel.NBCIallreduce-C.GOMB_NBC_IALLREDUCE]
	_ = one[kernel.NBCIgather-C.GOMB_NBC_IGATHER]
	_ = one[kernel.NBCIscatter-C.GOMB_NBC_ISCATTER]
	_ = one[kernel.NBCIallgather-C.GOMB_NBC_IALLGATHER]
	_ = one[kernel.NBCIalltoall-C.GOMB_NBC_IALLTOALL]
	_ = one[kernel.NBCIgatherv-C.GOMB_NBC_IGATHERV]
	_ = one[kernel.NBCIscatterv-C.GOMB_NBC_ISCATTERV]
	_ = one[kernel.NBCIallgatherv-C.GOMB_NBC_IALLGATHERV]
	_ = one[kernel.NBCIalltoallv-C.GOMB_NBC_IALLTOALLV]
	_ = one[kernel.NBCIreduceScatter-C.GOMB_NBC_IREDUCE_SCATTER]
	_ = one[kernel.NBCIreduceScatterBlock-C.GOMB_NBC_IREDUCE_SCATTER_BLOCK]
	_ = one[kernel.NBCIalltoallw-C.GOMB_NBC_IALLTOALLW]
	_ = one[kernel.NBCIneighborAllgather-C.GOMB_NBC_INEIGHBOR_ALLGATHER]
	_ = one[kernel.NBCIneighborAllgatherv-C.GOMB_NBC_INEIGHBOR_ALLGATHERV]
	_ = one[kernel.NBCIneighborAlltoall-C.GOMB_NBC_INEIGHBOR_ALLTOALL]
	_ = one[kernel.NBCIneighborAlltoallv-C.GOMB_NBC_INEIGHBOR_ALLTOALLV]
	_ = one[kernel.NBCIneighborAlltoallw-C.GOMB_NBC_INEIGHBOR_ALLTOALLW]
	_ = one[kernel.IOPut-C.GOMB_IO_PUT]
	_ = one[kernel.IOGet-C.GOMB_IO_GET]
	_ = one[kernel.IONone-C.GOMB_IO_NONE]
	_ = one[kernel.IOIndv-C.GOMB_IO_INDV]
	_ = one[kernel.IOExpl-C.GOMB_IO_EXPL]
	_ = one[kernel.IOShared-C.GOMB_IO_SHARED]
}

// The IMB-EXT's and IMB-RMA's operations (imb_ext.h, imb_rma.h).
func _() {
	_ = one[kernel.EXTWindow-C.GOMB_EXT_WINDOW]
	_ = one[kernel.EXTUnidirPut-C.GOMB_EXT_UNIDIR_PUT]
	_ = one[kernel.EXTUnidirGet-C.GOMB_EXT_UNIDIR_GET]
	_ = one[kernel.EXTBidirPut-C.GOMB_EXT_BIDIR_PUT]
	_ = one[kernel.EXTBidirGet-C.GOMB_EXT_BIDIR_GET]
	_ = one[kernel.EXTAccumulate-C.GOMB_EXT_ACCUMULATE]
	_ = one[kernel.IMBRMAUnidirPut-C.GOMB_IRMA_UNIDIR_PUT]
	_ = one[kernel.IMBRMABidirPut-C.GOMB_IRMA_BIDIR_PUT]
	_ = one[kernel.IMBRMAUnidirGet-C.GOMB_IRMA_UNIDIR_GET]
	_ = one[kernel.IMBRMABidirGet-C.GOMB_IRMA_BIDIR_GET]
	_ = one[kernel.IMBRMAPutLocal-C.GOMB_IRMA_PUT_LOCAL]
	_ = one[kernel.IMBRMAGetLocal-C.GOMB_IRMA_GET_LOCAL]
	_ = one[kernel.IMBRMAPutAllLocal-C.GOMB_IRMA_PUT_ALL_LOCAL]
	_ = one[kernel.IMBRMAGetAllLocal-C.GOMB_IRMA_GET_ALL_LOCAL]
	_ = one[kernel.IMBRMAOnePutAll-C.GOMB_IRMA_ONE_PUT_ALL]
	_ = one[kernel.IMBRMAAllPutAll-C.GOMB_IRMA_ALL_PUT_ALL]
	_ = one[kernel.IMBRMAOneGetAll-C.GOMB_IRMA_ONE_GET_ALL]
	_ = one[kernel.IMBRMAAllGetAll-C.GOMB_IRMA_ALL_GET_ALL]
	_ = one[kernel.IMBRMAExchangePut-C.GOMB_IRMA_EXCHANGE_PUT]
	_ = one[kernel.IMBRMAExchangeGet-C.GOMB_IRMA_EXCHANGE_GET]
	_ = one[kernel.IMBRMAAccumulate-C.GOMB_IRMA_ACCUMULATE]
	_ = one[kernel.IMBRMAGetAccumulate-C.GOMB_IRMA_GET_ACCUMULATE]
	_ = one[kernel.IMBRMAFetchAndOp-C.GOMB_IRMA_FETCH_AND_OP]
	_ = one[kernel.IMBRMACompareAndSwap-C.GOMB_IRMA_COMPARE_AND_SWAP]
	_ = one[kernel.IMBRMATrulyPassivePut-C.GOMB_IRMA_TRULY_PASSIVE_PUT]
}

// The IMB-MT's benchmarks and settings (imb_mt.h), gomb congestion's
// patterns (congest.h), IMB-P2P's benchmarks (imb_p2p.h).
func _() {
	_ = one[kernel.MTPingPong-C.GOMB_MT_PINGPONG]
	_ = one[kernel.MTPingPing-C.GOMB_MT_PINGPING]
	_ = one[kernel.MTSendRecv-C.GOMB_MT_SENDRECV]
	_ = one[kernel.MTExchange-C.GOMB_MT_EXCHANGE]
	_ = one[kernel.MTUniBand-C.GOMB_MT_UNIBAND]
	_ = one[kernel.MTBiBand-C.GOMB_MT_BIBAND]
	_ = one[kernel.MTBarrier-C.GOMB_MT_BARRIER]
	_ = one[kernel.MTBcast-C.GOMB_MT_BCAST]
	_ = one[kernel.MTReduce-C.GOMB_MT_REDUCE]
	_ = one[kernel.MTAllReduce-C.GOMB_MT_ALLREDUCE]
	_ = one[kernel.CongAlltoall-C.GOMB_CONG_ALLTOALL]
	_ = one[kernel.CongIncast-C.GOMB_CONG_INCAST]
	_ = one[kernel.CongPutIncast-C.GOMB_CONG_PUT_INCAST]
	_ = one[kernel.CongGetBcast-C.GOMB_CONG_GET_BCAST]
	_ = one[kernel.MTBarrierOn-C.GOMB_MT_BARRIER_ON]
	_ = one[kernel.MTBarrierOff-C.GOMB_MT_BARRIER_OFF]
	_ = one[kernel.MTBarrierSpecial-C.GOMB_MT_BARRIER_SPECIAL]
	_ = one[kernel.MTMallocSerial-C.GOMB_MT_MALLOC_SERIAL]
	_ = one[kernel.MTMallocContinuous-C.GOMB_MT_MALLOC_CONTINUOUS]
	_ = one[kernel.MTMallocParallel-C.GOMB_MT_MALLOC_PARALLEL]
	_ = one[kernel.P2PPingPong-C.GOMB_P2P_PINGPONG]
	_ = one[kernel.P2PPingPing-C.GOMB_P2P_PINGPING]
	_ = one[kernel.P2PUnirandom-C.GOMB_P2P_UNIRANDOM]
	_ = one[kernel.P2PBirandom-C.GOMB_P2P_BIRANDOM]
	_ = one[kernel.P2PCorandom-C.GOMB_P2P_CORANDOM]
	_ = one[kernel.P2PStencil2D-C.GOMB_P2P_STENCIL2D]
	_ = one[kernel.P2PStencil3D-C.GOMB_P2P_STENCIL3D]
	_ = one[kernel.P2PSendRecvReplace-C.GOMB_P2P_SENDRECV_REPLACE]
}

// dispatched reports whether gomb_run has a kernel family for k.
func dispatched(k kernel.ID) bool { return C.gomb_kernel_dispatched(C.int(k)) != 0 }

// ddtKinds are OSU's -D words for gomb.h's GOMB_DDT_* (Job.SetDDT).
var ddtKinds = map[string]C.int{"": C.GOMB_DDT_NONE, "cont": C.GOMB_DDT_CONT, "vect": C.GOMB_DDT_VECT, "indx": C.GOMB_DDT_INDX}
