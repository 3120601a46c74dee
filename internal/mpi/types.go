// Package mpi is gomb's thin layer over the MPI library.
//
// It is the only package that calls MPI (the archive's SQLite driver is
// the tree's other cgo). Go code sees small types (Comm, Job) over handles
// that live in C, errors carry the MPI error class and string, and nothing
// here exits or aborts on its own: main decides. Every timed loop runs in
// C (imb_mpi1.c, osu.c, imb_rma.c, ...: a file per suite or loop family),
// entered once per batch through Job.Run, with its buffers laid out as the
// peer program lays out its own (IMB: MPI_Alloc_mem per size; OSU:
// page-aligned once for the largest size). What a call runs (kernel ids,
// call parameters, buffer scheme, thread level) is named in package
// kernel, which needs no cgo.
//
// The library is the one whose compiler wrapper builds it (CC=mpicc go
// build): its mpi.h's macros say which family it is and what it can do
// (build.c, BuildInfo), MPI_Get_library_version which library runs
// (Identify). Built with CGO_ENABLED=0 the package still compiles and
// every call returns ErrNoMPI, so the analysis commands build anywhere.
package mpi

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoMPI is returned by every call of a binary built without cgo.
var ErrNoMPI = errors.New("this gomb binary was built without MPI (CGO_ENABLED=0); build it with your MPI's compiler wrapper to measure (CC=mpicc go build ./cmd/gomb)")

// Error is an MPI error code turned into a Go error.
type Error struct {
	Code   int    // the MPI return code
	Class  int    // MPI_Error_class of Code
	Text   string // MPI_Error_string of Code
	Action string // what gomb was doing
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: MPI error %d: %s", e.Action, e.Code, strings.TrimSpace(e.Text))
}

// NBCTimes are a non-blocking kernel's sums over the timed iterations, in
// seconds.
type NBCTimes struct {
	Init, Compute, Test, Wait float64
	Pure                      float64 // kernel.IMBNBC: the pure loop's mean, seconds
}

// Validation is the outcome of one validation call on one rank.
type Validation struct {
	Bad       int64   // wrong elements (bytes for untyped data)
	FirstBad  int64   // index of the first wrong element, -1 if none
	Got, Want float64 // the first wrong element and what it should be
}
