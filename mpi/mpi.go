//go:build cgo

package mpi

/*
#cgo CFLAGS: -O2 -Wall -Wno-stringop-overflow
#include <stdlib.h>
#include "gomb.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Available reports whether this binary can call MPI.
const Available = true

func init() {
	// MPI_Init and every later MPI call come from the main thread only,
	// which MPI_THREAD_SINGLE (IMB's level) and plain MPI_Init (OSU's)
	// allow in practice: pin main's goroutine to it.
	runtime.LockOSThread()
}

func mpiErr(rc C.int, action string) error {
	if rc == 0 {
		return nil
	}
	var buf [512]C.char
	C.gomb_error_string(rc, &buf[0], C.int(len(buf)))
	return &Error{Code: int(rc), Class: int(C.gomb_error_class(rc)), Text: C.GoString(&buf[0]), Action: action}
}

// Init initialises MPI with the given thread level (NoThreadInit: plain
// MPI_Init) and returns the level provided. It must be called from the main
// goroutine.
func Init(level ThreadLevel) (ThreadLevel, error) {
	var provided C.int
	rc := C.gomb_init(C.int(level), &provided)
	if rc != 0 {
		return NoThreadInit, fmt.Errorf("MPI_Init failed with code %d", int(rc))
	}
	// MPICH's SIGUSR1 handler would crash a Go process; make it run on the
	// alternate signal stack.
	C.gomb_sigusr1_onstack()
	return ThreadLevel(provided), nil
}

// Initialized reports whether MPI_Init has been called.
func Initialized() bool { return C.gomb_initialized() != 0 }

// Finalized reports whether MPI_Finalize has been called.
func Finalized() bool { return C.gomb_finalized() != 0 }

// Finalize calls MPI_Finalize once; later calls do nothing.
func Finalize() error {
	if !Initialized() || Finalized() {
		return nil
	}
	return mpiErr(C.gomb_finalize(), "MPI_Finalize")
}

// Abort ends the whole job with the given exit code (MPI_Abort).
func Abort(code int) { C.gomb_abort(C.int(code)) }

// LibraryVersion returns MPI_Get_library_version's string.
func LibraryVersion() (string, error) {
	buf := (*C.char)(C.malloc(8192))
	defer C.free(unsafe.Pointer(buf))
	if err := mpiErr(C.gomb_library_version(buf, 8192), "MPI_Get_library_version"); err != nil {
		return "", err
	}
	return C.GoString(buf), nil
}

// StandardVersion returns the MPI standard version (MPI_Get_version).
func StandardVersion() (major, minor int, err error) {
	var ma, mi C.int
	err = mpiErr(C.gomb_standard_version(&ma, &mi), "MPI_Get_version")
	return int(ma), int(mi), err
}

// ProcessorName returns MPI_Get_processor_name.
func ProcessorName() (string, error) {
	var buf [1024]C.char
	if err := mpiErr(C.gomb_processor_name(&buf[0], C.int(len(buf))), "MPI_Get_processor_name"); err != nil {
		return "", err
	}
	return C.GoString(&buf[0]), nil
}

// Wtime returns MPI_Wtime in seconds.
func Wtime() float64 { return float64(C.gomb_wtime()) }

// DatatypeUsable reports whether d works in this library, with MPI_SUM when
// reduction is set.
func DatatypeUsable(d Datatype, reduction bool) bool {
	r := C.int(0)
	if reduction {
		r = 1
	}
	return C.gomb_dtype_usable(C.int(d), r) != 0
}

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

// Job is one reusable timed-kernel context: its buffers, sample storage and
// communicator live in C memory.
type Job struct {
	j   *C.gomb_job
	dev *Device // buffers in GPU memory (nil: host)
}

// NewJob allocates a job; Free releases it.
func NewJob() (*Job, error) {
	j := C.gomb_job_new()
	if j == nil {
		return nil, fmt.Errorf("gomb_job_new: out of memory")
	}
	return &Job{j: j}, nil
}

// Free releases the job's C memory.
func (j *Job) Free() {
	if j.j != nil {
		C.gomb_job_free(j.j)
		j.j = nil
	}
}

// Bind attaches the job to a communicator (null: this rank sits out).
func (j *Job) Bind(c Comm) error {
	return mpiErr(C.gomb_job_bind(j.j, c.c), "bind job")
}

// Reserve makes the send and receive buffers at least the given sizes
// (with BuffersIMB: exactly, newly allocated) and room for n samples, as
// the scheme chosen by SetBuffers says: page and IMB buffers are filled
// with IMB's values for fillRank (IMB's receive buffers with zeros), malloc
// buffers are left untouched.
func (j *Job) Reserve(sendBytes, recvBytes int64, n int, fillRank int) error {
	if err := mpiErr(C.gomb_job_reserve(j.j, C.size_t(sendBytes), C.size_t(recvBytes), C.size_t(n), C.int(fillRank)), "allocate buffers"); err != nil {
		return err
	}
	return j.syncDevice()
}

// SetBuffers chooses how later Reserve calls allocate the message
// buffers; buffers already held keep their scheme until Release.
func (j *Job) SetBuffers(b Buffers) { j.j.buf_mode = C.int(b) }

// Release frees the message buffers (IMB frees them after every size).
func (j *Job) Release() {
	C.gomb_job_release(j.j)
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Set describes the next kernel call.
func (j *Job) Set(s JobSpec) {
	c := j.j
	c.kernel = C.int(s.Kernel)
	c.dtype = C.int(s.Type)
	c.count = C.int(s.Count)
	c.root = C.int(s.Root)
	c.root_shift = cbool(s.RootShift)
	c.sync = cbool(s.Sync)
	c.imb_barrier = cbool(s.IMBBarrier)
	c.source = C.int(s.Source)
	w := s.Window
	if w <= 0 {
		w = 1
	}
	c.window = C.int(w)
	c.s_offs = C.size_t(s.SendOffs)
	c.r_offs = C.size_t(s.RecvOffs)
	c.s_cache_iter = C.int(max(1, s.SendCacheIter))
	c.r_cache_iter = C.int(max(1, s.RecvCacheIter))
	c.skip = C.int(s.Skip)
	c.pairs = cbool(s.Pairs)
	c.in_place = cbool(s.InPlace)
	c.rma_op = C.int(s.RMAOp)
	c.rma_kind = C.int(s.RMAKind)
	c.win_mode = C.int(s.WinMode)
	c.sync_mode = C.int(s.SyncMode)
	c.nbc_op = C.int(s.NBCOp)
	c.compute_s = C.double(s.ComputeS)
	c.ntest = C.int(s.NTest)
}

// Run executes the kernel n times in one C call and returns what IMB calls
// the time: the loop time, or the sum of per-call times for collectives, in
// seconds; negative on ranks that take no part in the kernel. With record
// set, per-iteration samples are kept for Samples.
func (j *Job) Run(n int, record bool) (float64, error) {
	j.j.n = C.int(n)
	j.j.record = cbool(record)
	if err := mpiErr(C.gomb_run(j.j), "kernel"); err != nil {
		return 0, err
	}
	return float64(j.j.elapsed), nil
}

// Samples copies the samples of the last recorded Run: per-iteration
// seconds.
func (j *Job) Samples() []float64 {
	n := int(j.j.nsamples)
	if n <= 0 || j.j.samples == nil || n > int(j.j.n_cap) {
		return nil
	}
	out := make([]float64, n)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(j.j.samples)), n))
	return out
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

// NBCTimes returns the last non-blocking Run's time sums.
func (j *Job) NBCTimes() NBCTimes {
	return NBCTimes{Init: float64(j.j.t_init), Compute: float64(j.j.t_compute), Test: float64(j.j.t_test), Wait: float64(j.j.t_wait)}
}

// Stamps copies the MPI_Wtime stamps of the last KernelOneWay Run: four per
// timed iteration (lower rank: before its send, after its receive; upper
// rank: after its receive, before its send); each rank fills its own two.
func (j *Job) Stamps(n int) []float64 {
	if n <= 0 || j.j.stamps == nil || n > int(j.j.n_cap) {
		return nil
	}
	out := make([]float64, 4*n)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(j.j.stamps)), 4*n))
	return out
}

// Validate runs one untimed, validated call of the kernel (iteration iter
// selects the data pattern and, with root shift, the root).
func (j *Job) Validate(iter int) (Validation, error) {
	var bad, first C.long
	var got, want C.double
	err := mpiErr(C.gomb_validate(j.j, C.int(iter), &bad, &first, &got, &want), "validate")
	return Validation{Bad: int64(bad), FirstBad: int64(first), Got: float64(got), Want: float64(want)}, err
}

// SetFaultCorrupt makes every later Check corrupt the first received byte
// (fault injection for tests).
func SetFaultCorrupt(on bool) { C.gomb_set_fault_corrupt(cbool(on)) }
