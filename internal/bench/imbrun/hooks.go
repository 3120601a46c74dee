package imbrun

import (
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

// transfer is what a suite adds to IMB-MPI1's size loop, as IMB's own
// IMB_init_file, IMB_init_transfer and friends do for it; a nil hook does
// nothing. Every suite's hooks are in transfers, and the loop calls them
// without asking which suite it runs.
type transfer struct {
	// table runs before each table (a process count and mode): IMB-IO's
	// file (IMB_init_file).
	table func(e *Engine, job *mpi.Job, s *imb.Spec, color, np int) error
	// size runs before a size's pre-run (IMB_init_transfer): IMB-EXT's
	// and IMB-RMA's window, IMB-IO's open file.
	size func(job *mpi.Job, bytes int64) error
	// estimated runs after each estimating run (-iter_policy dynamic):
	// IMB-IO starts its file over.
	estimated func(job *mpi.Job) error
	// noWarmup: the suite has no warm-up (IMB-IO).
	noWarmup bool
	// calibrate: the suite's overlapping benchmarks need the CPU exploit
	// calibrated first (IMB-IO's non-blocking ones).
	calibrate bool
	// overlap reads an overlapping benchmark's times from every rank's
	// slots (IMB-IO's; overlapOf, IMB-NBC's, without).
	overlap func(ranks []int, vals []float64, scale float64) *result.NBC
}

var window = transfer{size: func(job *mpi.Job, _ int64) error { return job.OpenWindow() }}

// transfers are the suites' hooks, by kernel.
var transfers = map[kernel.ID]transfer{
	kernel.IMBEXT: window,
	kernel.IMBRMA: window,
	kernel.IMBIO: {
		table: func(e *Engine, job *mpi.Job, s *imb.Spec, color, np int) error {
			o := &e.Opt
			job.Set(kernel.Params{Kernel: s.Kernel, IO: s.IO})
			return job.IOFile(o.IOFileName(o.IODir, s, color, e.World.Rank()), o.IOFileBytes(s, s.IOProcs(np)))
		},
		size:      func(job *mpi.Job, bytes int64) error { return job.IOOpen(bytes) },
		estimated: func(job *mpi.Job) error { return job.IORewind() },
		noWarmup:  true,
		calibrate: true,
		overlap:   ioOverlapOf,
	},
}
