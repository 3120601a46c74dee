package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

// casBuffers: the origin holds the value, the result and the compare value.
func casBuffers(size int64, np, window int) (int64, int64) { return 3 * size, size }

func init() {
	Register(&Spec{
		Name:       "cas_latency",
		Title:      "OSU MPI_Compare_and_swap latency Test",
		Kind:       RMALatency,
		Job:        kernel.Params{Kernel: kernel.RMA, RMAOp: kernel.RMACompareSwap, RMAKind: kernel.RMALatency, Type: kernel.LongLong},
		FixedSize:  8,
		ExactRanks: 2,
		Win:        kernel.WinAllocate,
		Sync:       kernel.SyncFlush,
		SyncModes:  allSyncs,
		Buffers:    casBuffers,
		Summary:    "MPI_Compare_and_swap of one 8-byte integer",
	})
}
