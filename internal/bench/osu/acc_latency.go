package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "acc_latency",
		Title:      "OSU MPI_Accumulate latency Test",
		Kind:       RMALatency,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAAcc, RMAKind: kernel.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    SameBuffers,
		Summary:    "MPI_Accumulate (MPI_SUM) latency",
	})
}
