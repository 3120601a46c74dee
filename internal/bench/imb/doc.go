// Package imb declares the IMB-MPI1, IMB-NBC, IMB-MPI4, IMB-EXT, IMB-RMA and IMB-IO benchmarks, one file each, and IMB's
// measurement rules: run options, message sizes, repetition policies,
// process counts and groups, and what a run hands its sinks (Table,
// Sink). Everything a benchmark is lives in its Spec: kernel, family,
// time and bandwidth factors, roles for interpretation. The package is
// plain Go (no cgo): the analysis side reads the specs without linking
// MPI. The engine that runs them is package imbrun; their semantics are
// those of IMB-MPI1 2021.
package imb

// Suite is the registry name of the IMB-MPI1 suite.
const Suite = "imb"

// SuiteNBC is IMB-NBC's: the non-blocking collectives, each alone
// (_pure) and overlapped with IMB's CPU exploit.
const SuiteNBC = "imb-nbc"

// SuiteMPI4 is IMB-MPI4's: the same collectives as MPI-4 persistent
// requests (MPI_<op>_init once, MPI_Start each repetition).
const SuiteMPI4 = "imb-mpi4"

// SuiteEXT is IMB-EXT's: MPI-2 one-sided communication with fences, each
// benchmark but Window in IMB's two modes (aggregate, non-aggregate).
const SuiteEXT = "imb-ext"

// SuiteRMA is IMB-RMA's: MPI-3 passive-target one-sided communication
// (lock, flush, atomics), the single-target benchmarks in IMB's two modes
// (non-aggregate, then aggregate).
const SuiteRMA = "imb-rma"

// SuiteIO is IMB-IO's: MPI-IO writes and reads of one process (S_), of
// every process (P_) and collective (C_), blocking and non-blocking (the I
// variants, overlapped with IMB's CPU exploit), and Open_Close.
const SuiteIO = "imb-io"

// Suites are the IMB suites gomb runs, IMB-MPI1 first; each has a
// subcommand of its name (gomb imb, gomb imb-nbc, gomb imb-mpi4, gomb
// imb-ext, gomb imb-rma, gomb imb-io).
var Suites = []string{Suite, SuiteNBC, SuiteMPI4, SuiteEXT, SuiteRMA, SuiteIO}

// Part is the suite's name in IMB's banner ("MPI-1" in "IMB-MPI1 ...,
// MPI-1 part") and Binary IMB's program for it.
func Part(suite string) (part, binary string) {
	i := Info(suite)
	return i.Part, i.Program
}
