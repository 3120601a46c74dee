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

// CanaryRing runs GPCNeT's random-ring canary on c (the ring is c's rank
// order): each iteration inflight messages of bytes to and from both
// neighbours, then MPI_Barrier(c) with barrier; warm untimed iterations,
// then n timed. It returns each timed iteration's seconds.
func CanaryRing(c Comm, bytes, inflight int, barrier bool, warm, n int) ([]float64, error) {
	out := make([]float64, max(1, n))
	rc := C.gomb_canary_ring(c.c.comm, C.int(bytes), C.int(inflight), cbool(barrier), C.int(warm), C.int(n),
		(*C.double)(unsafe.Pointer(&out[0])))
	return out[:n], mpiErr(rc, "random ring")
}

// CanaryAllreduce runs GPCNeT's multiple-allreduce canary on c: 8 bytes,
// MPI_SUM; warm untimed calls, then n timed, each call's seconds.
func CanaryAllreduce(c Comm, warm, n int) ([]float64, error) {
	out := make([]float64, max(1, n))
	rc := C.gomb_canary_allreduce(c.c.comm, C.int(warm), C.int(n), (*C.double)(unsafe.Pointer(&out[0])))
	return out[:n], mpiErr(rc, "allreduce canary")
}

// CanaryPhase is the canaries' side of a phase barrier over global (the
// test's every rank): after an isolated phase, before and after a
// congested one.
func CanaryPhase(global Comm) error {
	return mpiErr(C.gomb_canary_phase(global.c.comm), "phase barrier")
}

// QuietBarrier is an MPI_Ibarrier on c waited for by tests pollS apart
// (0: MPI_Wait), for ranks that only wait.
func QuietBarrier(c Comm, pollS float64) error {
	return mpiErr(C.gomb_quiet_barrier(c.c.comm, C.double(pollS)), "MPI_Ibarrier")
}

// Congestor is one congestor of gomb congestion: a pattern run by a group
// (one rank a node) while the canaries measure.
type Congestor struct{ c *C.gomb_congestor }

// CongestorLoad is what a congestor rank did in a congested phase.
type CongestorLoad struct {
	Calls   float64 // batches
	Sent    float64 // bytes this rank sent, put or had got
	Seconds float64 // from the canaries' start to the congestor's stop
}

// NewCongestor makes the congestor of group (collective over it): its
// buffers and, for the one-sided patterns, its window; global is every
// rank of the test. A batch is batch operations; pollS > 0 makes its waits
// sleep between tests; capS bounds a congested phase.
func NewCongestor(group, global Comm, p kernel.CongPattern, bytes, batch int, pollS, capS float64) (*Congestor, error) {
	var rc C.int
	c := C.gomb_congestor_new(group.c.comm, global.c.comm, C.int(p), C.int(bytes), C.int(batch), C.double(pollS),
		C.double(capS), &rc)
	if c == nil {
		return nil, mpiErr(rc, "congestor")
	}
	return &Congestor{c}, nil
}

// Isolated waits while the canaries measure alone.
func (g *Congestor) Isolated() error {
	return mpiErr(C.gomb_congestor_isolated(g.c), "congestor, isolated phase")
}

// Congest runs the pattern until the canaries are done.
func (g *Congestor) Congest() (CongestorLoad, error) {
	err := mpiErr(C.gomb_congestor_congest(g.c), "congestor")
	return CongestorLoad{Calls: float64(g.c.calls), Sent: float64(g.c.sent), Seconds: float64(g.c.seconds)}, err
}

// Free frees the congestor (collective over its group).
func (g *Congestor) Free() {
	if g != nil && g.c != nil {
		C.gomb_congestor_free(g.c)
		g.c = nil
	}
}
