package analysis

import (
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	// The suites' specs register their traits; all three packages are
	// plain Go, so analysis links no MPI.
	_ "github.com/gomb-hpc/gomb/internal/bench/imb"
	_ "github.com/gomb-hpc/gomb/internal/bench/osu"
	_ "github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/result"
)

// traitsOf is what a benchmark's spec says of it (bench.Traits); a
// benchmark no spec declares (an imported test gomb does not run) has
// none: no role, t_avg, no model.
func traitsOf(suite, benchmark string) bench.Traits {
	// a mode is the benchmark's; so is a fleet node's key ("pair_bw @ c07")
	b, _, _ := strings.Cut(result.BaseName(benchmark), " @ ")
	t, _ := bench.TraitsOf(suite, b)
	return t
}

// traits of the series' benchmark.
func (s Series) traits() bench.Traits { return traitsOf(s.Suite, s.Benchmark) }
