package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// registerEXT registers an IMB-EXT benchmark (window.go, unidir_put.go,
// ...): IMB-EXT's default list, in its order.
func registerEXT(s *Spec) {
	s.Suite, s.Kernel, s.Default, s.TimeScale = SuiteEXT, kernel.IMBEXT, true, 1
	if s.Buffers == nil {
		s.Buffers = SameBuffers
	}
	Register(s)
}
