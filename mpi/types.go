// Package mpi is gomb's thin layer over the MPI library.
//
// It is the only cgo in the tree. Go code sees small types (Comm, Job) over
// handles that live in C, errors carry the MPI error class and string, and
// nothing here exits or aborts on its own: main decides. Every timed loop
// runs in C (kernels.c), entered once per batch through Job.Run, with its
// buffers in page-aligned C memory.
//
// The library is chosen at build time: Open MPI by default, MPICH with the
// build tag "mpich". Built with CGO_ENABLED=0 the package still compiles and
// every call returns ErrNoMPI, so the analysis commands build anywhere.
package mpi

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoMPI is returned by every call of a binary built without cgo.
var ErrNoMPI = errors.New("this gomb binary was built without MPI (CGO_ENABLED=0); build it with cgo to measure")

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

// Buffers says where a job's message buffers come from. Each suite lays
// its buffers out as its peer program does: where a buffer starts within
// its page, and against its partner buffer, moves copy and reduction speed
// by tens of percent.
type Buffers int

// The buffer schemes (mirrored in gomb.h, enum gomb_buf_mode).
const (
	// BuffersPage: page-aligned (posix_memalign), grown as sizes grow,
	// filled with IMB's values. OSU's own layout, and gomb imb -buffers page.
	BuffersPage Buffers = iota
	// BuffersIMB: IMB-MPI1's: MPI_Alloc_mem of each size's exact bytes,
	// the send buffer filled with IMB's values and the receive buffer
	// zeroed, both freed after the size.
	BuffersIMB
	// BuffersMalloc: mpi-comm-bench's: malloc, not written before use.
	BuffersMalloc
)

var bufferNames = []string{"page", "imb", "malloc"}

// String is the scheme's name as flags and records spell it.
func (b Buffers) String() string {
	if b < 0 || int(b) >= len(bufferNames) {
		return fmt.Sprintf("Buffers(%d)", int(b))
	}
	return bufferNames[b]
}

// MarshalText writes the scheme's name (records).
func (b Buffers) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads a scheme's name.
func (b *Buffers) UnmarshalText(t []byte) error {
	v, err := ParseBuffers(string(t))
	if err == nil {
		*b = v
	}
	return err
}

// ParseBuffers maps a name to a scheme.
func ParseBuffers(s string) (Buffers, error) {
	for i, n := range bufferNames {
		if strings.EqualFold(s, n) {
			return Buffers(i), nil
		}
	}
	return 0, fmt.Errorf("unknown buffer scheme %q (want %s)", s, strings.Join(bufferNames, ", "))
}

// ThreadLevel is the thread support requested from MPI_Init_thread.
type ThreadLevel int

// The thread levels; NoThreadInit calls plain MPI_Init.
const (
	NoThreadInit     ThreadLevel = -1
	ThreadSingle     ThreadLevel = 0
	ThreadFunneled   ThreadLevel = 1
	ThreadSerialized ThreadLevel = 2
	ThreadMultiple   ThreadLevel = 3
)

var threadNames = map[ThreadLevel]string{
	NoThreadInit:     "",
	ThreadSingle:     "MPI_THREAD_SINGLE",
	ThreadFunneled:   "MPI_THREAD_FUNNELED",
	ThreadSerialized: "MPI_THREAD_SERIALIZED",
	ThreadMultiple:   "MPI_THREAD_MULTIPLE",
}

// String returns the MPI name of the level ("" for plain MPI_Init).
func (t ThreadLevel) String() string { return threadNames[t] }

// InitCall names the call that initialises MPI at this level.
func (t ThreadLevel) InitCall() string {
	if t == NoThreadInit {
		return "MPI_Init"
	}
	return "MPI_Init_thread"
}

// ParseThreadLevel maps IMB's -thread_level words to a level.
func ParseThreadLevel(s string) (ThreadLevel, error) {
	switch strings.ToLower(s) {
	case "single":
		return ThreadSingle, nil
	case "funneled":
		return ThreadFunneled, nil
	case "serialized":
		return ThreadSerialized, nil
	case "multiple":
		return ThreadMultiple, nil
	case "nompinit":
		return NoThreadInit, nil
	}
	return 0, fmt.Errorf("unknown thread level %q (want single, funneled, serialized, multiple or nompinit)", s)
}

// NBCTimes are a non-blocking kernel's sums over the timed iterations, in
// seconds.
type NBCTimes struct {
	Init, Compute, Test, Wait float64
}

// Validation is the outcome of one validation call on one rank.
type Validation struct {
	Bad       int64   // wrong elements (bytes for untyped data)
	FirstBad  int64   // index of the first wrong element, -1 if none
	Got, Want float64 // the first wrong element and what it should be
}
