package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// RMAPart is an IMB-RMA benchmark's part of its Spec (kernel.IMBRMA).
type RMAPart struct {
	IMBRMAOp kernel.IMBRMAOp
	// NonAggrFirst: IMB-RMA's order of the modes, non-aggregate first,
	// whose warm-up runs in that first mode whatever the table's.
	// OneElement: one size, one element of the reduction type
	// (Fetch_and_op, Compare_and_swap). Batched: the loop completes all
	// repetitions with one call, so there is no time per repetition.
	// Passive: Truly_passive_put's two times, t_pure (target in
	// MPI_Barrier) and t_ovrl (target computing).
	NonAggrFirst, OneElement, Batched, Passive bool
}

// registerRMA registers an IMB-RMA benchmark of rmaTable:
// IMB-RMA's modes in its order, and its bandwidth column, size over t[usec],
// on every table that has one (the t_min/t_max/t_avg tables and
// Truly_passive_put's have none).
func registerRMA(s *Spec) {
	s.Suite, s.Kernel, s.TimeScale, s.NonAggrFirst = SuiteRMA, kernel.IMBRMA, 1, true
	if s.Family != Collective && !s.Passive {
		s.BWScale = 1
	}
	if s.Buffers == nil {
		s.Buffers = SameBuffers
	}
	Register(s)
}

// twiceBuffers is Exchange_put's and Exchange_get's: a message for each
// neighbour.
func twiceBuffers(size int64, _ int) (int64, int64) { return 2 * size, 2 * size }
