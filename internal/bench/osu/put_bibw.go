package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "put_bibw",
		Title:      "OSU MPI_Put Bi-directional Bandwidth Test",
		Kind:       RMABandwidth,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAPut, RMAKind: kernel.RMABiBandwidth},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   2,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncPSCW,
		SyncModes:  []kernel.SyncMode{kernel.SyncPSCW, kernel.SyncFence},
		Buffers:    WindowBuffers,
		Directions: 2,
		Summary:    "windows of MPI_Put both ways",
	})
}
