package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "get_bw",
		Title:      "OSU MPI_Get Bandwidth Test",
		Kind:       RMABandwidth,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAGet, RMAKind: mpi.RMABandwidth},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    WindowBuffers,
		Summary:    "windows of MPI_Get by rank 0 from rank 1",
	})
}
