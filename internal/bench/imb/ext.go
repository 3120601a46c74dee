package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// EXTPart is an IMB-EXT benchmark's part of its Spec (kernel.IMBEXT).
type EXTPart struct {
	EXTOp kernel.EXTOp
	// RedUnit: the sizes are multiples of the reduction type whatever the
	// element type (IMB-EXT's driver sets its unit so).
	RedUnit bool
}

// registerEXT registers an IMB-EXT benchmark of extTable: IMB-EXT's
// default list, in its order, every size a multiple of the reduction type.
func registerEXT(s *Spec) {
	s.Suite, s.Kernel, s.Default, s.TimeScale, s.RedUnit = SuiteEXT, kernel.IMBEXT, true, 1, true
	if s.Buffers == nil {
		s.Buffers = SameBuffers
	}
	Register(s)
}
