package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// registerEXT registers an IMB-EXT benchmark (window.go, unidir_put.go,
// ...): IMB-EXT's default list, in its order, every size a multiple of the
// reduction type.
func registerEXT(s *Spec) {
	s.Suite, s.Kernel, s.Default, s.TimeScale, s.RedUnit = SuiteEXT, kernel.IMBEXT, true, 1, true
	if s.Buffers == nil {
		s.Buffers = SameBuffers
	}
	Register(s)
}
