package imbrun

import (
	"fmt"
	"math"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

// intLimit is IMB's int-overflow check (IMB_init_buffers_iter): a size
// whose send or receive buffer holds more than INT_MAX elements of unit
// bytes. IMB ends the benchmark there; gomb runs the size through MPI-4's large-count calls where this library
// has them for the benchmark's kernel (large), and otherwise gives the
// row's reason: the limit passed and what would lift it.
func intLimit(s *imb.Spec, size int64, np int, unit int64) (large bool, reason string) {
	sl, rl := s.Buffers(size, np)
	if sl/unit <= math.MaxInt32 && rl/unit <= math.MaxInt32 {
		return false, ""
	}
	if mpi.LargeCount(s.Kernel) && !s.Persist {
		return true, ""
	}
	which, n := "send", sl
	if rl > sl {
		which, n = "receive", rl
	}
	limit := fmt.Sprintf("%s of %d bytes on %d ranks needs a %s buffer of %d elements, past MPI's int counts (%d)",
		s.Name, size, np, which, n/unit, math.MaxInt32)
	if !mpi.LargeCount(kernel.PingPong) {
		v := "this MPI library"
		if lib, err := mpi.LibraryVersion(); err == nil && result.LibraryName(lib) != "" {
			v = result.LibraryName(lib)
		}
		if major, minor, err := mpi.StandardVersion(); err == nil {
			v += fmt.Sprintf(" (MPI %d.%d)", major, minor)
		}
		return false, limit + "; " + v + " has no MPI-4 large-count calls (MPI_Send_c and the like): " +
			"a library of MPI 4.0 or later (MPICH 4: gomb-mpich) runs it"
	}
	return false, limit + "; gomb sends past it only in " + strings.Join(largeBenchmarks(), ", ")
}

// largeBenchmarks names IMB-MPI1's benchmarks that run past INT_MAX here.
func largeBenchmarks() []string {
	var out []string
	for _, s := range imb.Specs(imb.Suite) {
		if mpi.LargeCount(s.Kernel) && !s.Persist {
			out = append(out, s.Name)
		}
	}
	return out
}
