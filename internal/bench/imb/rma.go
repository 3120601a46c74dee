package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// registerRMA registers an IMB-RMA benchmark (rma_unidir_put.go, ...):
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
