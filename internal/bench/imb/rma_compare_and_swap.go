package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:       "Compare_and_swap",
		IMBRMAOp:   kernel.IMBRMACompareAndSwap,
		Default:    true,
		Order:      16,
		Family:     SingleTransfer,
		Modes:      true,
		OneElement: true,
		Buffers:    casBuffers,
		Comments:   []string{"Uses MPI_INT data type"},
		Summary:    "MPI_Compare_and_swap of one int from rank 0 on rank 1's window, MPI_Win_flush per call (aggregate: one for all)",
	})
}

// casBuffers: the origin's values (result, compare, origin) are three ints
// of its receive buffer (IMB's RECVBUF_SIZE_3I).
func casBuffers(size int64, _ int) (int64, int64) { return size, 3 * size }
