//go:build cgo

package mpi

/*
#include <stdlib.h>
#include "gomb.h"
*/
import "C"
import "unsafe"

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
func (c Comm) GatherFloat64s(send []float64, root int) ([]float64, error) {
	n := len(send)
	size := c.Size()
	cs := (*C.double)(C.malloc(C.size_t(8 * (n*size + 1))))
	defer C.free(unsafe.Pointer(cs))
	sb := (*C.double)(C.malloc(C.size_t(8 * (n + 1))))
	defer C.free(unsafe.Pointer(sb))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(sb)), n), send)
	if err := mpiErr(C.gomb_gather_doubles(c.c, sb, C.int(n), cs, C.int(root)), "MPI_Gather"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	out := make([]float64, n*size)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(cs)), n*size))
	return out, nil
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
	counts, cnt, dsp, total, err := c.gatherCounts(len(send), root)
	if err != nil {
		return nil, err
	}
	size := c.Size()
	rb := (*C.double)(C.malloc(C.size_t(8 * (total + 1))))
	defer C.free(unsafe.Pointer(rb))
	sb := (*C.double)(C.malloc(C.size_t(8 * (len(send) + 1))))
	defer C.free(unsafe.Pointer(sb))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(sb)), len(send)), send)
	if err := mpiErr(C.gomb_gatherv_doubles(c.c, sb, C.int(len(send)), rb, &cnt[0], &dsp[0], C.int(root)), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	all := unsafe.Slice((*float64)(unsafe.Pointer(rb)), total)
	out := make([][]float64, size)
	for i, v := range counts {
		out[i] = append([]float64(nil), all[dsp[i]:int(dsp[i])+v]...)
	}
	return out, nil
}

// GathervBytes gathers a byte string of any length from every rank to root.
func (c Comm) GathervBytes(send []byte, root int) ([][]byte, error) {
	counts, cnt, dsp, total, err := c.gatherCounts(len(send), root)
	if err != nil {
		return nil, err
	}
	size := c.Size()
	rb := C.malloc(C.size_t(total + 1))
	defer C.free(rb)
	sb := C.CBytes(append(send, 0))
	defer C.free(sb)
	if err := mpiErr(C.gomb_gatherv_bytes(c.c, sb, C.int(len(send)), rb, &cnt[0], &dsp[0], C.int(root)), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	all := C.GoBytes(rb, C.int(total))
	out := make([][]byte, size)
	for i, v := range counts {
		out[i] = all[dsp[i] : int(dsp[i])+v]
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
	return c.gatherv(j.j.samples, n, root)
}

// GatherFloat64v gathers every rank's slice (any length, nil for none) to
// root, which gets one slice per rank; the others get nil.
func (c Comm) GatherFloat64v(send []float64, root int) ([][]float64, error) {
	n := len(send)
	sb := (*C.double)(C.malloc(C.size_t(8 * (n + 1))))
	defer C.free(unsafe.Pointer(sb))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(sb)), n), send)
	return c.gatherv(sb, n, root)
}

// gatherv gathers n doubles at sb (C memory) from every rank to root.
func (c Comm) gatherv(sb *C.double, n, root int) ([][]float64, error) {
	counts, cnt, dsp, total, err := c.gatherCounts(n, root)
	if err != nil {
		return nil, err
	}
	if n == 0 || sb == nil {
		var dummy C.double
		sb = &dummy
	}
	var rb *C.double
	if c.Rank() == root {
		rb = (*C.double)(C.malloc(C.size_t(8 * (total + 1))))
		defer C.free(unsafe.Pointer(rb))
	}
	if err := mpiErr(C.gomb_gatherv_doubles(c.c, sb, C.int(n), rb, &cnt[0], &dsp[0], C.int(root)), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if c.Rank() != root {
		return nil, nil
	}
	all := unsafe.Slice((*float64)(unsafe.Pointer(rb)), total)
	out := make([][]float64, len(counts))
	for i, v := range counts {
		out[i] = append([]float64(nil), all[dsp[i]:int(dsp[i])+v]...)
	}
	return out, nil
}
