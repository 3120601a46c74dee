package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "fop_latency",
		Title:      "OSU MPI_Fetch_and_op latency Test",
		Kind:       RMALatency,
		Job:        mpi.JobSpec{Kernel: mpi.KernelRMA, RMAOp: mpi.RMAFetchOp, RMAKind: mpi.RMALatency, Type: mpi.LongLong},
		FixedSize:  8,
		ExactRanks: 2,
		Win:        mpi.WinAllocate,
		Sync:       mpi.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    resultBuffers,
		Summary:    "MPI_Fetch_and_op (MPI_SUM) of one 8-byte integer",
	})
}
