//go:build cgo

package mpi

/*
#include <stdlib.h>
#include "gomb.h"
*/
import "C"

import (
	"errors"
	"sync/atomic"
	"time"
	"unsafe"
)

// Comm is a communicator; the zero value and split-off non-members are null.
type Comm struct{ c *C.gomb_comm }

// World returns MPI_COMM_WORLD.
func World() Comm { return Comm{C.gomb_world()} }

// Null reports whether c is MPI_COMM_NULL (the rank is not a member).
func (c Comm) Null() bool { return C.gomb_comm_is_null(c.c) != 0 }

// Rank is the calling process's rank in c, -1 if not a member.
func (c Comm) Rank() int {
	if c.Null() {
		return -1
	}
	return int(C.gomb_comm_rank(c.c))
}

// Size is the number of processes in c, 0 if null.
func (c Comm) Size() int {
	if c.Null() {
		return 0
	}
	return int(C.gomb_comm_size(c.c))
}

// OneNode reports whether every process of c shares this process's node
// (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED); collective over c.
func (c Comm) OneNode() bool {
	if c.Null() {
		return false
	}
	return int(C.gomb_comm_node_size(c.c)) == c.Size()
}

// Split is MPI_Comm_split; a negative color means MPI_UNDEFINED and yields
// a null Comm.
func (c Comm) Split(color, key int) (Comm, error) {
	var out *C.gomb_comm
	if err := mpiErr(C.gomb_comm_split(c.c, C.int(color), C.int(key), &out), "MPI_Comm_split"); err != nil {
		return Comm{}, err
	}
	return Comm{out}, nil
}

// Free releases a communicator made by Split.
func (c Comm) Free() {
	if c.c != nil {
		C.gomb_comm_free(c.c)
	}
}

// Agree combines every rank's yes over c (MPI_Iallreduce), waiting for it
// at most limit (0: as long as it takes): all is whether every rank said
// yes, some whether one did. done is false when limit passed first; the
// agreement is then left pending, and the caller must end the job.
func (c Comm) Agree(yes bool, limit time.Duration) (all, some, done bool, err error) {
	var lo, hi, fin C.int
	if err := mpiErr(C.gomb_agree(c.c, cbool(yes), C.double(limit.Seconds()), &lo, &hi, &fin), "MPI_Iallreduce"); err != nil {
		return false, false, false, err
	}
	return lo == 1, hi == 1, fin != 0, nil
}

// InjectError makes an MPI call over c that the library refuses (an
// MPI_Send of -1 elements) and returns its error: GOMB_FAULT=mpi-error, a
// real MPI error where a library defect would put one. A library that
// checks no arguments (MPICH built without error checking) sends nothing,
// and InjectError says so.
func InjectError(c Comm) error {
	if err := mpiErr(C.gomb_refused_call(c.c), "MPI_Send (GOMB_FAULT=mpi-error)"); err != nil {
		return err
	}
	return errors.New("GOMB_FAULT=mpi-error: this MPI library accepted an MPI_Send of -1 elements (it checks no arguments): no MPI error to inject")
}

// Barrier is MPI_Barrier.
func (c Comm) Barrier() error { return mpiErr(C.gomb_barrier(c.c), "MPI_Barrier") }

// MaxFloat64 is MPI_Allreduce(MPI_MAX) of one double.
func (c Comm) MaxFloat64(v float64) (float64, error) {
	x := C.double(v)
	err := mpiErr(C.gomb_allreduce_max_double(c.c, &x), "MPI_Allreduce")
	return float64(x), err
}

// MaxInt is MPI_Allreduce(MPI_MAX) of one int.
func (c Comm) MaxInt(v int) (int, error) {
	x := C.int(v)
	err := mpiErr(C.gomb_allreduce_max_int(c.c, &x), "MPI_Allreduce")
	return int(x), err
}

// MinInt is MPI_Allreduce(MPI_MIN) of one int.
func (c Comm) MinInt(v int) (int, error) {
	x := C.int(v)
	err := mpiErr(C.gomb_allreduce_min_int(c.c, &x), "MPI_Allreduce")
	return int(x), err
}

// BcastInt broadcasts one int from root.
func (c Comm) BcastInt(v, root int) (int, error) {
	x := C.int(v)
	err := mpiErr(C.gomb_bcast_int(c.c, &x, C.int(root)), "MPI_Bcast")
	return int(x), err
}

// BcastFixed broadcasts len(b) bytes from root into b on every rank, with
// no length sent ahead: every rank must pass the same length.
func (c Comm) BcastFixed(b []byte, root int) error {
	if len(b) == 0 {
		return nil
	}
	p := C.CBytes(b)
	defer C.free(p)
	if err := mpiErr(C.gomb_bcast_bytes(c.c, p, C.int(len(b)), C.int(root)), "MPI_Bcast"); err != nil {
		return err
	}
	copy(b, C.GoBytes(p, C.int(len(b))))
	return nil
}

// SendBytes is MPI_Send of b to rank dest with tag.
func (c Comm) SendBytes(b []byte, dest, tag int) error {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = C.CBytes(b)
		defer C.free(p)
	}
	return mpiErr(C.gomb_send_bytes(c.c, p, C.int(len(b)), C.int(dest), C.int(tag)), "MPI_Send")
}

// Probe says whether a message from any rank waits to be received
// (MPI_Iprobe, any tag): its source, tag and length in bytes.
func (c Comm) Probe() (source, tag, n int, ok bool, err error) {
	var flag, src, tg, ln C.int
	if err := mpiErr(C.gomb_iprobe_bytes(c.c, &flag, &src, &tg, &ln), "MPI_Iprobe"); err != nil {
		return 0, 0, 0, false, err
	}
	return int(src), int(tg), int(ln), flag != 0, nil
}

// RecvBytes receives the n-byte message of tag from rank source.
func (c Comm) RecvBytes(n, source, tag int) ([]byte, error) {
	p := C.malloc(C.size_t(max(n, 1)))
	defer C.free(p)
	if err := mpiErr(C.gomb_recv_bytes(c.c, p, C.int(n), C.int(source), C.int(tag)), "MPI_Recv"); err != nil {
		return nil, err
	}
	return C.GoBytes(p, C.int(n)), nil
}

// BcastBytes broadcasts a byte string of any length from root; other ranks
// may pass nil.
func (c Comm) BcastBytes(b []byte, root int) ([]byte, error) {
	n, err := c.BcastInt(len(b), root)
	if err != nil {
		return nil, err
	}
	if c.Rank() != root {
		b = make([]byte, n)
	}
	if n == 0 {
		return b, nil
	}
	p := C.CBytes(b)
	defer C.free(p)
	if err := mpiErr(C.gomb_bcast_bytes(c.c, p, C.int(n), C.int(root)), "MPI_Bcast"); err != nil {
		return nil, err
	}
	return C.GoBytes(p, C.int(n)), nil
}

// GatherFloat64s gathers len(send) doubles from every rank to root, in rank
// order. Every rank must send the same number. Non-roots get nil.
//
// The gathers' buffers are Go memory, pinned for the call: nothing of
// gomb's own lands on the C heap between sizes, where it would move the
// next size's message buffers away from where the peer program's land.
func (c Comm) GatherFloat64s(send []float64, root int) ([]float64, error) {
	n := len(send)
	size := c.Size()
	sb := append(append(make([]float64, 0, n+1), send...), 0)
	rb := make([]float64, n*size+1)
	if err := mpiErr(C.gomb_gather_doubles(c.c, (*C.double)(&sb[0]), C.int(n), (*C.double)(&rb[0]), C.int(root)), "MPI_Gather"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	return rb[: n*size : n*size], nil
}

// GatherInts gathers len(send) ints from every rank to root.
func (c Comm) GatherInts(send []int, root int) ([]int, error) {
	n := len(send)
	size := c.Size()
	sb := make([]C.int, n+1)
	for i, v := range send {
		sb[i] = C.int(v)
	}
	rb := make([]C.int, n*size+1)
	if err := mpiErr(C.gomb_gather_ints(c.c, &sb[0], C.int(n), &rb[0], C.int(root)), "MPI_Gather"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	out := make([]int, n*size)
	for i := range out {
		out[i] = int(rb[i])
	}
	return out, nil
}

// gatherCounts gathers every rank's element count to root and lays the
// elements out one rank after the other: counts and displacements for
// MPI_Gatherv, and the total.
func (c Comm) gatherCounts(n, root int) (counts []int, cnt, dsp []C.int, total int, err error) {
	if counts, err = c.GatherInts([]int{n}, root); err != nil {
		return nil, nil, nil, 0, err
	}
	cnt = make([]C.int, c.Size()+1)
	dsp = make([]C.int, c.Size()+1)
	for i, v := range counts {
		cnt[i] = C.int(v)
		dsp[i] = C.int(total)
		total += v
	}
	return counts, cnt, dsp, total, nil
}

// GathervFloat64s gathers a slice of any length from every rank to root;
// root gets one slice per rank.
func (c Comm) GathervFloat64s(send []float64, root int) ([][]float64, error) {
	sb := append(append(make([]float64, 0, len(send)+1), send...), 0)
	return c.gatherv((*C.double)(&sb[0]), len(send), root)
}

// GathervBytes gathers a byte string of any length from every rank to root.
func (c Comm) GathervBytes(send []byte, root int) ([][]byte, error) {
	counts, cnt, dsp, total, err := c.gatherCounts(len(send), root)
	if err != nil {
		return nil, err
	}
	rb := make([]byte, total+1)
	sb := append(append(make([]byte, 0, len(send)+1), send...), 0)
	if err := mpiErr(C.gomb_gatherv_bytes(c.c, unsafe.Pointer(&sb[0]), C.int(len(send)), unsafe.Pointer(&rb[0]), &cnt[0], &dsp[0], C.int(root)), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	out := make([][]byte, len(counts))
	for i, v := range counts {
		out[i] = rb[dsp[i] : int(dsp[i])+v : int(dsp[i])+v]
	}
	return out, nil
}

// GatherSamples gathers the samples of the last recorded Run of j on every
// rank of c to root, straight from the job's C memory (no copy on the
// sending ranks); root gets one slice per rank, in seconds. Ranks with send
// false (no part in the last Run) send none.
func (c Comm) GatherSamples(j *Job, send bool, root int) ([][]float64, error) {
	n := 0
	if send && j.j.samples != nil && int(j.j.nsamples) <= int(j.j.n_cap) {
		n = int(j.j.nsamples)
	}
	t0 := time.Now()
	all, err := c.gatherv(j.j.samples, n, root)
	sampleGatherNS.Add(int64(time.Since(t0)))
	for _, a := range all {
		samplesGathered.Add(int64(len(a)))
	}
	return all, err
}

var sampleGatherNS, samplesGathered atomic.Int64

// SampleGathers says how long this rank spent in GatherSamples so far and,
// at the root, how many samples it received.
func SampleGathers() (time.Duration, int64) {
	return time.Duration(sampleGatherNS.Load()), samplesGathered.Load()
}

// GatherFloat64v gathers every rank's slice (any length, nil for none) to
// root, which gets one slice per rank; the others get nil.
func (c Comm) GatherFloat64v(send []float64, root int) ([][]float64, error) {
	return c.GathervFloat64s(send, root)
}

// gatherv gathers n doubles at sb (C memory, or Go memory pinned for the
// call) from every rank to root.
func (c Comm) gatherv(sb *C.double, n, root int) ([][]float64, error) {
	counts, cnt, dsp, total, err := c.gatherCounts(n, root)
	if err != nil {
		return nil, err
	}
	if n == 0 || sb == nil {
		var dummy C.double
		sb = &dummy
	}
	var rb []float64
	var rp *C.double
	if c.Rank() == root {
		rb = make([]float64, total+1)
		rp = (*C.double)(&rb[0])
	}
	if err := mpiErr(C.gomb_gatherv_doubles(c.c, sb, C.int(n), rp, &cnt[0], &dsp[0], C.int(root)), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	out := make([][]float64, len(counts))
	for i, v := range counts {
		out[i] = rb[dsp[i] : int(dsp[i])+v : int(dsp[i])+v]
	}
	return out, nil
}
