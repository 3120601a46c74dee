package imb

import "github.com/gomb-hpc/gomb/result"

// Table announces one benchmark at one process count: what the IMB text
// header shows.
type Table struct {
	Spec  *Spec
	NP    int // active processes (per group with -multi)
	Multi int // -multi: -1 off, 0, 1
	// Groups holds the world ranks of each group in communicator order
	// (one group without -multi).
	Groups [][]int
	Idle   int // processes waiting in MPI_Barrier
	World  int
	MapP   int // -map grid (0: none)
	MapQ   int
	Check  bool
	// Precision: -iter_policy precision, whose tables show the precision
	// each size reached.
	Precision bool
	// Mode is the run mode of the table ("" or result.ModeAggregate,
	// result.ModeNonAggregate: IMB's "MODE:" line).
	Mode string
}

// Sink receives, on rank 0 only, what the engine measures, in order.
type Sink interface {
	// Exploit is IMB-IO's CPU exploit calibration, before the first table
	// of a run with non-blocking I/O benchmarks: its MFlops.
	Exploit(mflops float64) error
	Table(t *Table) error
	Invalid(s *Spec, np int) error
	Result(r *result.Result) error
}

// Progress is told, on rank 0, when each size is done.
type Progress interface {
	Size(s *Spec, np int, size int64, done, total int)
}

// Summary counts what a run produced.
type Summary struct {
	Results       int
	CheckFailures int // rows whose -check validation failed
}
