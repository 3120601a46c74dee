package osu

import (
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// Table is what the text header of a test shows: the test, its options and
// the settings in force.
type Table struct {
	Spec *Spec
	Opt  *Options
	NP   int
	Win  kernel.WinMode  // one-sided: window creation in force
	Sync kernel.SyncMode // one-sided: synchronisation in force
	// Fan: the fan tests' layout of the ranks over the hosts.
	Fan *Fan
	// Nbr is the neighbourhood collectives' graph and NbrCreateUS what
	// making it took (MPI_Dist_graph_create_adjacent, the ranks' mean, µs).
	Nbr         *Neighbourhood
	NbrCreateUS float64
	// Staged: with -d cuda, the MPI library is not CUDA-aware and device
	// data goes through host memory.
	Staged bool
}

// Sink receives, on rank 0, the table and then one result per size.
type Sink interface {
	Table(t *Table) error
	Result(r *result.Result) error
}

// Graph is one size's value at every timed iteration (-G): latency in µs
// or bandwidth in MB/s, as the tail columns take them, and the size's
// printed value.
type Graph struct {
	Test   string
	Bytes  int64
	Avg    float64
	Unit   string // OSU's axis label: "Lat(us)" or "BW(MB/s)"
	Values []float64
}

// Grapher is a Sink that draws -G's graphs: Graphs gets the test's, every
// size's, after its last size, as OSU draws them after its table.
type Grapher interface {
	Graphs(g []Graph) error
}

// Summary counts what a run produced.
type Summary struct {
	Results          int
	ValidationFailed int
}
