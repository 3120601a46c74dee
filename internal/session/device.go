package session

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/mpi"
)

// GPU buffers: loading the CUDA runtime on the ranks that want it.

// OpenDevice loads the CUDA runtime on the ranks that want a GPU and makes
// every rank agree on the outcome: the first rank's error, named by flag,
// fails them all. It returns this rank's device (nil where not wanted).
func (s *Session) OpenDevice(flag string, want bool) (*mpi.Device, error) {
	var dev *mpi.Device
	msg := ""
	if want {
		lr := envLocalRank()
		if lr < 0 {
			lr = s.Rank
		}
		var err error
		if dev, err = mpi.OpenCUDA(lr); err != nil {
			msg = fmt.Sprintf("%s: rank %d: %v", flag, s.Rank, err)
		}
	}
	all, err := s.World.GathervBytes([]byte(msg), 0)
	if err != nil {
		return nil, err
	}
	return dev, s.Agree(func() string {
		for _, m := range all {
			if len(m) > 0 {
				return string(m)
			}
		}
		return ""
	})
}
