package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "put_bw",
		Title:      "OSU MPI_Put Bandwidth Test",
		Kind:       RMABandwidth,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAPut, RMAKind: mpi.RMABandwidth},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    WindowBuffers,
		Summary:    "windows of MPI_Put from rank 0 to rank 1",
	})
}
