package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "put_latency",
		Title:      "OSU MPI_Put Latency Test",
		Kind:       RMALatency,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAPut, RMAKind: mpi.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    SameBuffers,
		Summary:    "MPI_Put latency",
	})
}
