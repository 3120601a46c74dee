package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "acc_latency",
		Title:      "OSU MPI_Accumulate latency Test",
		Kind:       RMALatency,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAAcc, RMAKind: mpi.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    SameBuffers,
		Summary:    "MPI_Accumulate (MPI_SUM) latency",
	})
}
