package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "put_latency",
		Title:      "OSU MPI_Put Latency Test",
		Kind:       RMALatency,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAPut, RMAKind: kernel.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    SameBuffers,
		Summary:    "MPI_Put latency",
	})
}
