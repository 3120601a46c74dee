//go:build cgo

package mpi

/*
#include <stdlib.h>
#include "gomb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// MT is an IMB-MT team: the threads of an OpenMP team (one without
// MPI_THREAD_MULTIPLE), each with MPI_COMM_WORLD duplicated for it and
// buffers of its own. Its C memory is freed by Free.
type MT struct{ m *C.gomb_mt }

// MTThread is what one thread measured in the last Run.
type MTThread struct {
	Seconds  float64   // the loop's time, or the timed calls' sum; 0 without a result
	Result   bool      // the benchmark ran on this thread's rank
	Failures int64     // -check: ints that differ
	Samples  []float64 // per repetition, seconds (recorded runs)
}

// NewMT makes the team, collectively over MPI_COMM_WORLD: OMP_NUM_THREADS
// threads (OpenMP's default) with multiple, else one.
func NewMT(multiple bool) (*MT, error) {
	var rc C.int
	m := C.gomb_mt_new(cbool(multiple), &rc)
	if m == nil {
		return nil, mpiErr(rc, "IMB-MT threads' communicators")
	}
	return &MT{m}, nil
}

// Threads is the team's size.
func (t *MT) Threads() int { return int(C.gomb_mt_threads(t.m)) }

// Buffers gives every thread a send and a receive buffer of the given
// bytes, as IMB-MT allocates them (-malloc_align, -malloc_algo), and room
// for the window's requests and repeat samples.
func (t *MT) Buffers(sendBytes, recvBytes int64, align int, algo kernel.MTMalloc, window, repeat int) error {
	return mpiErr(C.gomb_mt_buffers(t.m, C.size_t(sendBytes), C.size_t(recvBytes), C.int(align), C.int(algo),
		C.int(window), C.int(repeat)), "IMB-MT buffers")
}

// Run runs one call on every thread and returns each thread's outcome.
func (t *MT) Run(c kernel.MTCall) ([]MTThread, error) {
	call := C.gomb_mt_call{op: C.int(c.Op), count: C.int(c.Count), dtype: C.int(c.Type), warmup: C.int(c.Warmup),
		repeat: C.int(c.Repeat), stride: C.int(c.Stride), window: C.int(c.Window), barrier: C.int(c.Barrier),
		check: cbool(c.Check), record: cbool(c.Record)}
	err := mpiErr(C.gomb_mt_run(t.m, &call), "IMB-MT run")
	out := make([]MTThread, t.Threads())
	for i := range out {
		h := C.gomb_mt_thread_at(t.m, C.int(i))
		out[i] = MTThread{Seconds: float64(h.t), Result: h.result != 0, Failures: int64(h.failures)}
		if n := int(h.nsamples); n > 0 && h.samples != nil {
			out[i].Samples = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(h.samples)), n)...)
		}
	}
	return out, err
}

// Free frees the team's communicators and buffers (collective).
func (t *MT) Free() {
	if t != nil && t.m != nil {
		C.gomb_mt_free(t.m)
		t.m = nil
	}
}
