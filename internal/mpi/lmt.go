//go:build cgo

package mpi

/*
#include "gomb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// LatencyMT is OSU's osu_latency_mt: send threads on rank 0, receive
// threads on rank 1 (none elsewhere), each with buffers of its own, on
// one communicator; MPI must run with MPI_THREAD_MULTIPLE. Free frees its
// C memory.
type LatencyMT struct{ m *C.gomb_lmt }

// NewLatencyMT makes the threads' buffers, maxBytes each. tagPerIter: tag
// every iteration by its number (OSU does with more than one sender given).
func NewLatencyMT(c Comm, send, recv int, tagPerIter bool, maxBytes int64) (*LatencyMT, error) {
	var rc C.int
	m := C.gomb_lmt_new(c.c, C.int(send), C.int(recv), cbool(tagPerIter), C.size_t(maxBytes), &rc)
	if m == nil {
		return nil, mpiErr(rc, "osu_latency_mt buffers")
	}
	return &LatencyMT{m}, nil
}

// Run measures one size: iters timed round trips after skip warm-ups, over
// the threads. It returns rank 0's seconds of all timed round trips (-1
// elsewhere), with record its per-iteration round trips, with check the
// bytes that arrived wrong (Validation).
func (l *LatencyMT) Run(t kernel.Datatype, count, iters, skip int, record, check bool) (float64, []float64, Validation, error) {
	m := l.m
	err := mpiErr(C.gomb_lmt_run(m, C.int(t), C.int(count), C.int(iters), C.int(skip), cbool(record), cbool(check)), "osu_latency_mt")
	var samples []float64
	if m.record != 0 && m.samples != nil {
		samples = append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(m.samples)), iters)...)
	}
	v := Validation{Bad: int64(m.bad), FirstBad: int64(m.first), Got: float64(m.got), Want: float64(m.want)}
	return float64(m.elapsed), samples, v, err
}

// Free frees the buffers.
func (l *LatencyMT) Free() {
	if l != nil && l.m != nil {
		C.gomb_lmt_free(l.m)
		l.m = nil
	}
}
