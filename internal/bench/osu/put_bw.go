package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "put_bw",
		Title:      "OSU MPI_Put Bandwidth Test",
		Kind:       RMABandwidth,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAPut, RMAKind: kernel.RMABandwidth},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    WindowBuffers,
		Directions: 1,
		Summary:    "windows of MPI_Put from rank 0 to rank 1",
	})
}
