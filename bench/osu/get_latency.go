package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "get_latency",
		Title:      "OSU MPI_Get latency Test",
		Kind:       RMALatency,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAGet, RMAKind: mpi.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    SameBuffers,
		Summary:    "MPI_Get latency",
	})
}
