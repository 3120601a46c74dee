package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "put_bibw",
		Title:      "OSU MPI_Put Bi-directional Bandwidth Test",
		Kind:       RMABandwidth,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAPut, RMAKind: mpi.RMABiBandwidth},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   2,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncPSCW,
		SyncModes:  []mpi.SyncMode{mpi.SyncPSCW, mpi.SyncFence},
		Buffers:    WindowBuffers,
		Summary:    "windows of MPI_Put both ways",
	})
}
