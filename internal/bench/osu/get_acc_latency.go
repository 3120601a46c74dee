package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

// resultBuffers: the origin holds the sources and the fetched results.
func resultBuffers(size int64, np, window int) (int64, int64) { return 2 * size, size }

func init() {
	Register(&Spec{
		Name:       "get_acc_latency",
		Title:      "OSU MPI_Get_accumulate latency Test",
		Kind:       RMALatency,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMAGetAcc, RMAKind: kernel.RMALatency},
		MaxLog:     22,
		ExactRanks: 2,
		Win:        kernel.WinCreate,
		Sync:       kernel.SyncLock,
		SyncModes:  allSyncs,
		Buffers:    resultBuffers,
		Summary:    "MPI_Get_accumulate (MPI_SUM) latency",
	})
}
