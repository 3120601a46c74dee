//go:build cgo

package mpi

/*
#include <stdlib.h>
#include "gomb.h"
*/
import "C"
import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

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

// stampsResident says whether every page of the job's per-repetition
// arrays (samples and tick stamps) is in memory, as Reserve must leave
// them: a timed loop that stamps its repetitions would otherwise fault on
// each fresh page inside the timed region. For the tests.
func (j *Job) stampsResident() (bool, error) {
	n := int(j.j.n_cap)
	pg := os.Getpagesize()
	for _, p := range []unsafe.Pointer{unsafe.Pointer(j.j.samples), unsafe.Pointer(j.j.ticks)} {
		if p == nil || n == 0 {
			return false, fmt.Errorf("no arrays reserved")
		}
		size := n * 8
		vec := make([]byte, (size+pg-1)/pg)
		if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(p), uintptr(size), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
			return false, e
		}
		for _, v := range vec {
			if v&1 == 0 {
				return false, nil
			}
		}
	}
	return true, nil
}

// SetBuffers chooses how later Reserve calls allocate the message
// buffers; buffers already held keep their scheme until Release.
func (j *Job) SetBuffers(b kernel.Buffers) { j.j.buf_mode = C.int(b) }

// SetDelay makes this rank spin s seconds before every iteration of the
// IMB kernels' loops from now on (fault injection, GOMB_FAULT=delay; 0:
// none): a rank that arrives late.
func (j *Job) SetDelay(s float64) { j.j.delay_s = C.double(s) }

// Release frees the message buffers (IMB frees them after every size).
func (j *Job) Release() {
	C.gomb_job_release(j.j)
}

// IMBHeapStart makes, for a run with IMB-MPI1's buffers, the blocks IMB
// puts on the heap at start-up (six arrays of np ints, kept): with them a
// size's buffers land where IMB's do. First it raises glibc's dynamic mmap
// and trim thresholds as IMB's default sweep does after its first 4 MiB
// buffer (job.c, heap_settle), so no benchmark's temporaries are trimmed
// and faulted in again on every call by the luck of the heap's top.
func IMBHeapStart(np int) error {
	return mpiErr(C.gomb_imb_pointers(C.int(np)), "MPI_Alloc_mem")
}

// IMBHeapSize makes, on world rank 0 after a size's timed loop and before
// its buffers are released, the block IMB-MPI1 makes there (the gathered
// times, np doubles), freeing the one of the size before.
func IMBHeapSize(np int) error {
	return mpiErr(C.gomb_imb_times(C.int(np)), "MPI_Alloc_mem")
}

// IMBComm makes, on a communicator just split for a benchmark, the MPI
// calls IMB_init_communicator makes there (MPI_Comm_compare with the
// world; off the world's group, on its rank 0, both groups and a rank
// translation, kept with c until it is freed).
func IMBComm(c Comm) error {
	return mpiErr(C.gomb_imb_comm(c.c), "MPI_Comm_compare")
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Set describes the next kernel call.
func (j *Job) Set(s kernel.Params) {
	c := j.j
	c.kernel = C.int(s.Kernel)
	c.dtype = C.int(s.Type)
	// An int count that wrapped differs from count_c: gomb_run refuses it,
	// unless Large sends it through the large-count calls.
	c.count = C.int(s.Count)
	c.count_c = C.MPI_Count(s.Count)
	c.large = cbool(s.Large)
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
	c.rma.op = C.int(s.RMAOp)
	c.rma.kind = C.int(s.RMAKind)
	c.rma.win_mode = C.int(s.WinMode)
	c.rma.sync_mode = C.int(s.SyncMode)
	c.nbc.op = C.int(s.NBCOp)
	c.nbc.compute_s = C.double(s.ComputeS)
	c.nbc.ntest = C.int(s.NTest)
	c.nbc.overlap = cbool(s.Overlap)
	c.persist = cbool(s.Persist)
	c.win.ext_op = C.int(s.EXTOp)
	c.win.imb_rma_op = C.int(s.IMBRMAOp)
	c.p2p.op = C.int(s.P2P.Op)
	c.p2p.pause_us = C.int(s.P2P.PauseUS)
	c.p2p.touch_send = cbool(s.P2P.TouchSend)
	c.p2p.touch_recv = cbool(s.P2P.TouchRecv)
	c.p2p.nnbr = C.int(min(len(s.P2P.Neighbours), len(c.p2p.nbr)))
	for i := range c.p2p.nnbr {
		c.p2p.nbr[i] = C.int(s.P2P.Neighbours[i])
	}
	c.p2p.stride = C.size_t(s.P2P.Stride)
	c.aggregate = cbool(s.Aggregate)
	c.io.access = C.int(s.IO.Access)
	c.io.pos = C.int(s.IO.Pos)
	c.io.priv = cbool(s.IO.Priv)
	c.io.coll = cbool(s.IO.Collective)
	c.io.single = cbool(s.IO.Single)
	c.io.nonblocking = cbool(s.IO.Nonblocking)
	c.fan.out = cbool(s.FanOut)
	c.iter_barrier = cbool(s.IterBarrier)
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

// Messages is what the last IMB-P2P Run counted: the messages this rank
// sent and received in the timed loop.
func (j *Job) Messages() float64 { return float64(j.j.p2p.messages) }

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

// NBCTimes returns the last non-blocking Run's time sums (kernel.IMBNBC:
// Compute, the exploit's sum, and Pure, the pure loop's mean).
func (j *Job) NBCTimes() NBCTimes {
	return NBCTimes{Init: float64(j.j.t_init), Compute: float64(j.j.t_compute), Test: float64(j.j.t_test),
		Wait: float64(j.j.t_wait), Pure: float64(j.j.t_pure)}
}

// Stamps copies the MPI_Wtime stamps of the last kernel.OneWay Run: four per
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

// OpenWindow makes the window of IMB-EXT's and IMB-RMA's benchmarks
// (those of the kernel last Set) over the buffers reserved for a size, as
// IMB_init_transfer does (a collective call over the job's communicator);
// Release and the next Reserve free it.
func (j *Job) OpenWindow() error {
	if j.j.kernel == C.GOMB_K_IMB_RMA {
		return mpiErr(C.gomb_rma_window(j.j), "window")
	}
	return mpiErr(C.gomb_ext_window(j.j), "window")
}

// IOFile prepares the file of an IMB-IO table (IMB_init_file), a
// collective call over the job's communicator: the benchmark last Set,
// the file at path (made anew, total bytes long, for the reads and
// writes; for the reads filled with data the reads can be checked
// against). The kernel's communicator must be bound first.
func (j *Job) IOFile(path string, total int64) error {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	return mpiErr(C.gomb_io_file(j.j, p, C.longlong(total)), "file "+path)
}

// IOOpen opens the file of IMB-IO's benchmark for a size (the MPI-IO part
// of IMB_init_transfer) over the buffers reserved for it: this rank's
// portion, the view, the data it writes. Release closes it.
func (j *Job) IOOpen(size int64) error {
	return mpiErr(C.gomb_io_open(j.j, C.longlong(size)), "open file")
}

// IORewind puts the file pointers back at the file's start, as IMB-IO
// does after each run that estimates the repetitions.
func (j *Job) IORewind() error { return mpiErr(C.gomb_io_rewind(j.j), "seek") }

// IOCalibrate is IMB-IO's CPU exploit calibration, on every rank before
// its first table (IMB_cpu_exploit_reworked): the MFlops IMB-IO prints and
// tCPU, the exploit's time per repetition of a non-blocking loop, in
// microseconds.
func IOCalibrate() (mflops, tcpuUS float64) {
	var t C.double
	m := C.gomb_io_calibrate(&t)
	return float64(m), float64(t)
}

// Validate runs one untimed, validated call of the kernel (iteration iter
// selects the data pattern and, with root shift, the root).
func (j *Job) Validate(iter int) (Validation, error) {
	var bad, first C.long
	var got, want C.double
	err := mpiErr(C.gomb_validate(j.j, C.int(iter), &bad, &first, &got, &want), "validate")
	return Validation{Bad: int64(bad), FirstBad: int64(first), Got: float64(got), Want: float64(want)}, err
}

// Mismatch is one wrong element a check found: its index over what the
// check compared, what arrived and what was sent.
type Mismatch struct {
	Pos       int64
	Got, Want float64
}

// KeepMismatches has the checks keep up to limit wrong elements (0: none)
// for TakeMismatches (OSU's -c log:DIR).
func KeepMismatches(limit int) error {
	return mpiErr(C.gomb_vlog_enable(C.long(limit)), "keep mismatches")
}

// TakeMismatches returns the wrong elements the checks kept since the
// last call, and how many more there were past the limit.
func TakeMismatches(limit int) ([]Mismatch, int64) {
	pos := make([]C.long, max(limit, 1))
	got := make([]C.double, max(limit, 1))
	want := make([]C.double, max(limit, 1))
	var dropped C.long
	n := int(C.gomb_vlog_take(&pos[0], &got[0], &want[0], C.long(limit), &dropped))
	out := make([]Mismatch, n)
	for i := range out {
		out[i] = Mismatch{Pos: int64(pos[i]), Got: float64(got[i]), Want: float64(want[i])}
	}
	return out, int64(dropped)
}

// SetFaultCorrupt makes every later Check corrupt the first received byte
// (fault injection for tests).
func SetFaultCorrupt(on bool) { C.gomb_set_fault_corrupt(cbool(on)) }

// SetPeers gives the fan kernel (kernel.OSUFan) this rank's role: a parent
// and its children, or a child and its parent; no peers: no part.
func (j *Job) SetPeers(peers []int, parent bool) error {
	p := cInts(peers)
	return mpiErr(C.gomb_job_set_peers(j.j, first(p), C.int(len(p)), cbool(parent)), "set peers")
}

// SetNeighbours makes the graph of the neighbourhood collectives
// (kernel.Neighbor, the NBCIneighbor* operations) on the job's
// communicator, as OSU makes it (MPI_Dist_graph_create_adjacent, weights 1,
// no reordering): this rank's sources and destinations in order, and for
// each source the index of this rank among its destinations (which of its
// blocks an all-to-all sends here, for validation). A grid's dims (none
// for a graph) make the Cartesian communicator OSU makes and frees first.
// It returns the seconds MPI_Dist_graph_create_adjacent took on this rank.
func (j *Job) SetNeighbours(dims, sources, dests, slots []int) (float64, error) {
	if len(slots) != len(sources) {
		return 0, fmt.Errorf("set neighbours: %d slots for %d sources", len(slots), len(sources))
	}
	d, src, dst, slot := cInts(dims), cInts(sources), cInts(dests), cInts(slots)
	var took C.double
	err := mpiErr(C.gomb_job_set_nbr(j.j, C.int(len(d)), first(d), C.int(len(src)), first(src), C.int(len(dst)), first(dst), first(slot), &took),
		"MPI_Dist_graph_create_adjacent")
	return float64(took), err
}

// SetDDT makes OSU's -D type ("cont", "vect" with stride and block
// length, "indx" with its blocks) over count elements of t; while it is
// set, every message of the kernels is one of it. It returns the elements
// a message carries and the type's reach in bytes.
func (j *Job) SetDDT(kind string, t kernel.Datatype, count, stride, blockLen int, displs, lens []int) (transmit, reach int64, err error) {
	k, ok := ddtKinds[kind]
	if !ok || k == C.GOMB_DDT_NONE || len(lens) != len(displs) {
		return 0, 0, fmt.Errorf("-D %s: unknown type, or %d lengths for %d displacements", kind, len(lens), len(displs))
	}
	d, l := cInts(displs), cInts(lens)
	var tr, rb C.longlong
	err = mpiErr(C.gomb_job_set_ddt(j.j, C.int(t), k, C.int(count), C.int(stride), C.int(blockLen), C.int(len(l)), first(d), first(l), &tr, &rb), "-D "+kind)
	return int64(tr), int64(rb), err
}

// DimsCreate is MPI_Dims_create: a balanced split of n processes over d
// dimensions.
func DimsCreate(n, d int) ([]int, error) {
	if d < 1 {
		return nil, fmt.Errorf("dims create: %d dimensions", d)
	}
	dims := make([]C.int, d)
	if err := mpiErr(C.gomb_dims_create(C.int(n), C.int(d), &dims[0]), "MPI_Dims_create"); err != nil {
		return nil, err
	}
	out := make([]int, d)
	for i, v := range dims {
		out[i] = int(v)
	}
	return out, nil
}

func cInts(v []int) []C.int {
	p := make([]C.int, len(v))
	for i, x := range v {
		p[i] = C.int(x)
	}
	return p
}

func first(p []C.int) *C.int {
	if len(p) == 0 {
		return nil
	}
	return &p[0]
}

// ForkSleepers forks n processes that sleep seconds and leave
// (osu_latency_mp's); Reap ends and waits for them.
func ForkSleepers(n, seconds int) ([]int, error) {
	if n <= 0 {
		return nil, nil
	}
	p := make([]C.int, n)
	k := int(C.gomb_fork_sleepers(C.int(n), C.int(seconds), &p[0]))
	pids := make([]int, k)
	for i := range pids {
		pids[i] = int(p[i])
	}
	if k < n {
		return pids, fmt.Errorf("fork: %d of %d processes started", k, n)
	}
	return pids, nil
}

// Reap ends the children ForkSleepers started that still sleep and waits
// for every one.
func Reap(pids []int) {
	if len(pids) == 0 {
		return
	}
	p := make([]C.int, len(pids))
	for i, v := range pids {
		p[i] = C.int(v)
	}
	C.gomb_reap(&p[0], C.int(len(p)))
}
