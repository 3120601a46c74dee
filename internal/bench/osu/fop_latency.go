package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "fop_latency",
		Title:      "OSU MPI_Fetch_and_op latency Test",
		Kind:       RMALatency,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAFetchOp, RMAKind: kernel.RMALatency, Type: kernel.LongLong},
		FixedSize:  8,
		ExactRanks: 2,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    resultBuffers,
		Summary:    "MPI_Fetch_and_op (MPI_SUM) of one 8-byte integer",
	})
}
