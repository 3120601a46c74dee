// Package kernel names the C layer's timed loops, the parameters of one
// call and the set-up they run under (buffer scheme, thread level): plain
// Go, no cgo, so a benchmark's spec and options can name them without
// linking MPI (package mpi runs them).
package kernel

import (
	"fmt"
	"strings"
)

// ID names a timed loop of the C layer. The names and values are enum
// gomb_kernel's (gomb.h): a kernel added here needs its enumerator there and
// a line in internal/mpi/ids.go, whose build fails when the two differ.
type ID int

// The kernels.
const (
	None ID = iota
	PingPong
	PingPing
	Sendrecv
	Exchange
	Uniband
	Biband
	Barrier
	Bcast
	Scatter
	Scatterv
	Gather
	Gatherv
	Allgather
	Allgatherv
	Reduce
	ReduceLocal
	ReduceScatter
	ReduceScatterBlock
	Allreduce
	Alltoall
	Alltoallv
	BarrierCalls       // MPI_Barrier timed per call (osu_barrier)
	ReduceScatterSplit // MPI_Reduce_scatter of Count elements in all, split over the ranks
	OSULatency         // ping-pong timed per iteration by the lower rank of each pair
	OSUBw              // window of MPI_Isend, 4-byte reply
	OSUBibw            // windows both ways
	RMA                // one-sided: Params.RMA* choose op, window and synchronisation
	NBC                // non-blocking collective with overlapped compute
	Ring               // one MPI_Sendrecv around the ring after a barrier
	Memcpy             // memcpy of Count bytes
	OneWay             // ping-pong stamping every send and receive
	IMBNBC             // IMB-NBC, IMB-MPI4 (Params.Persist): Params.NBCOp, pure or (Params.Overlap) with IMB's CPU exploit
	IMBEXT             // IMB-EXT: Params.EXTOp, one-sided with fences, Params.Aggregate
	IMBRMA             // IMB-RMA: Params.IMBRMAOp, passive-target one-sided (lock, flush), Params.Aggregate
	IMBP2P             // IMB-P2P: Params.P2P, one size of a benchmark over the world
	IMBIO              // IMB-IO: Params.IO, MPI-IO writes, reads, open and close
	OSUFan             // OSU 7.4 osu_bw_fan_in/out: windows between parents and children (Params.FanOut; Job.SetPeers)
	Alltoallw          // MPI_Alltoallw: a block per rank, byte displacements, one type
	Neighbor           // a neighbourhood collective, Params.NBCOp's blocking form, on the job's graph (Job.SetNeighbours)
	Count              // the number of IDs, None included
)

// Valid reports whether k names a kernel.
func (k ID) Valid() bool { return k > None && k < Count }

// Datatype is a message element type. The values mirror enum gomb_dtype.
type Datatype int

// The element types.
const (
	Byte Datatype = iota
	Char
	Int
	Float
	Double
	LongLong
	Float16       // MPIX_C_FLOAT16 (IEEE half), where the MPI library has it
	BFloat16      // MPIX_C_BF16, likewise
	DatatypeCount // the number of Datatypes
)

var dtypeNames = []string{"MPI_BYTE", "MPI_CHAR", "MPI_INT", "MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_LONG",
	"MPIX_C_FLOAT16", "MPIX_C_BF16"}
var dtypeSizes = []int{1, 1, 4, 4, 8, 8, 2, 2}

// String returns the MPI name, e.g. "MPI_FLOAT".
func (d Datatype) String() string {
	if d < 0 || int(d) >= len(dtypeNames) {
		return fmt.Sprintf("Datatype(%d)", int(d))
	}
	return dtypeNames[d]
}

// Size is the element size in bytes on the usual LP64 platforms.
func (d Datatype) Size() int {
	if d < 0 || int(d) >= len(dtypeSizes) {
		return 1
	}
	return dtypeSizes[d]
}

// DatatypeNamed is the type of an MPI name ("MPI_FLOAT").
func DatatypeNamed(name string) (Datatype, bool) {
	for d, n := range dtypeNames {
		if n == name {
			return Datatype(d), true
		}
	}
	return 0, false
}

// dtypeWords are IMB's -data_type words of the types ("" for none: long
// long is OSU's, for its atomics).
var dtypeWords = []string{"byte", "char", "int", "float", "double", "", "float16", "bfloat16"}

// Word is the type's -data_type word ("float" for MPI_FLOAT).
func (d Datatype) Word() string {
	if d < 0 || int(d) >= len(dtypeWords) {
		return d.String()
	}
	return dtypeWords[d]
}

// ParseDatatype maps IMB's -data_type words (byte, char, int, float,
// double, float16, bfloat16) to a Datatype. Whether the MPI library has
// the type is the library's to say (package mpi, DatatypeUsable).
func ParseDatatype(s string) (Datatype, error) {
	for d, w := range dtypeWords {
		if w != "" && strings.EqualFold(s, w) {
			return Datatype(d), nil
		}
	}
	return 0, fmt.Errorf("unknown data type %q (want byte, char, int, float, double, float16 or bfloat16)", s)
}

// Source says how point-to-point receives name their source and tag.
type Source int

// The receive modes.
const (
	SourceSpecificAnyTag Source = iota // specific source, MPI_ANY_TAG (IMB PingPong)
	SourceSpecific                     // specific source and tag (…SpecificSource)
	SourceAny                          // MPI_ANY_SOURCE, MPI_ANY_TAG (…AnySource)
)

// RMAOp is the one-sided operation (values mirror gomb.h, used by osu_rma.c).
type RMAOp int

// The one-sided operations.
const (
	RMAPut RMAOp = iota
	RMAGet
	RMAAcc
	RMAGetAcc
	RMAFetchOp
	RMACompareSwap
)

// RMAKind is what a one-sided kernel measures.
type RMAKind int

// The one-sided measurements.
const (
	RMALatency     RMAKind = iota // one operation and its synchronisation per iteration
	RMABandwidth                  // a window of operations per synchronisation
	RMABiBandwidth                // windows both ways (PSCW or fence)
)

// WinMode is how the window is created (OSU -w).
type WinMode int

// The window creation modes.
const (
	WinCreate WinMode = iota
	WinAllocate
	WinDynamic
)

// SyncMode is the one-sided synchronisation (OSU -s).
type SyncMode int

// The synchronisation modes.
const (
	SyncLock SyncMode = iota
	SyncFlush
	SyncFlushLocal
	SyncLockAll
	SyncPSCW
	SyncFence
)

// NBCOp is a non-blocking collective.
type NBCOp int

// The non-blocking collectives.
const (
	NBCIbarrier NBCOp = iota
	NBCIbcast
	NBCIreduce
	NBCIallreduce
	NBCIgather
	NBCIscatter
	NBCIallgather
	NBCIalltoall
	NBCIgatherv // the rest are IMB-NBC's only
	NBCIscatterv
	NBCIallgatherv
	NBCIalltoallv
	NBCIreduceScatter
	NBCIreduceScatterBlock // OSU 7.4's
	NBCIalltoallw
	NBCIneighborAllgather // on the job's graph (Job.SetNeighbours); kernel Neighbor's blocking forms too
	NBCIneighborAllgatherv
	NBCIneighborAlltoall
	NBCIneighborAlltoallv
	NBCIneighborAlltoallw
)

// Neighbourhood reports whether the operation is a neighbourhood
// collective.
func (o NBCOp) Neighbourhood() bool { return o >= NBCIneighborAllgather && o <= NBCIneighborAlltoallw }

// Collective is the operation's name as the MPI libraries' algorithm
// tables give it for the blocking twin ("bcast"; "barrier" for Ibarrier).
func (o NBCOp) Collective() string {
	return [...]string{"barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall",
		"gatherv", "scatterv", "allgatherv", "alltoallv", "reduce_scatter", "reduce_scatter_block", "alltoallw",
		"neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"}[o]
}

// EXTOp is an IMB-EXT benchmark (values mirror gomb.h).
type EXTOp int

// IMB-EXT's benchmarks.
const (
	EXTWindow EXTOp = iota
	EXTUnidirPut
	EXTUnidirGet
	EXTBidirPut
	EXTBidirGet
	EXTAccumulate
)

// IMBRMAOp is an IMB-RMA benchmark (values mirror gomb.h).
type IMBRMAOp int

// IMB-RMA's benchmarks.
const (
	IMBRMAUnidirPut IMBRMAOp = iota
	IMBRMABidirPut
	IMBRMAUnidirGet
	IMBRMABidirGet
	IMBRMAPutLocal
	IMBRMAGetLocal
	IMBRMAPutAllLocal
	IMBRMAGetAllLocal
	IMBRMAOnePutAll
	IMBRMAAllPutAll
	IMBRMAOneGetAll
	IMBRMAAllGetAll
	IMBRMAExchangePut
	IMBRMAExchangeGet
	IMBRMAAccumulate
	IMBRMAGetAccumulate
	IMBRMAFetchAndOp
	IMBRMACompareAndSwap
	IMBRMATrulyPassivePut
)

// P2POp is an IMB-P2P benchmark (values mirror gomb.h).
type P2POp int

// IMB-P2P's benchmarks.
const (
	P2PPingPong P2POp = iota
	P2PPingPing
	P2PUnirandom
	P2PBirandom
	P2PCorandom
	P2PStencil2D
	P2PStencil3D
	P2PSendRecvReplace
)

// P2P is what an IMB-P2P call needs beyond the count (bytes, MPI_BYTE),
// the iterations and Skip (its warm-up iterations).
type P2P struct {
	Op      P2POp
	PauseUS int // -pause: microseconds slept before and after the loops; negative: none
	// TouchSend, TouchRecv: -msgwr, -msgrd (a byte a cache line written
	// before a send, read after a receive).
	TouchSend, TouchRecv bool
	// Neighbours are a stencil's ranks, each with a buffer of its own
	// Stride bytes after the previous.
	Neighbours []int
	Stride     int64
}

// IOAccess is what an IMB-IO benchmark does (IMB's access; values mirror
// gomb.h).
type IOAccess int

// The accesses.
const (
	IOPut  IOAccess = iota // writes
	IOGet                  // reads
	IONone                 // Open_Close
)

// IOPos is how an IMB-IO benchmark's loop positions in the file (IMB's
// pos; values mirror gomb.h).
type IOPos int

// The positionings.
const (
	IOIndv   IOPos = iota // individual file pointers (Indv, Priv; in a shared file through a view of each rank's block)
	IOExpl                // explicit offsets (Expl)
	IOShared              // the shared file pointer (Shared)
)

// IO is an IMB-IO benchmark's kernel: what it does and how.
type IO struct {
	Access      IOAccess
	Pos         IOPos
	Priv        bool // a file per rank (IMB's fpointer priv: the _Priv and all S_ benchmarks)
	Collective  bool // C_: MPI_File_write_all and the like
	Single      bool // S_: one process does the I/O
	Nonblocking bool // the I variants: the blocking loop (t_pure), then the non-blocking one with IMB's CPU exploit
}

// MTOp is an IMB-MT benchmark (values mirror gomb.h).
type MTOp int

// IMB-MT's benchmarks.
const (
	MTPingPong MTOp = iota
	MTPingPing
	MTSendRecv
	MTExchange
	MTUniBand
	MTBiBand
	MTBarrier
	MTBcast
	MTReduce
	MTAllReduce
)

// MTBarrierMode is IMB-MT's -barrier.
type MTBarrierMode int

// The barriers.
const (
	MTBarrierOn      MTBarrierMode = iota // MPI_Barrier on MPI_COMM_WORLD
	MTBarrierOff                          // none
	MTBarrierSpecial                      // a dissemination of empty MPI_Sendrecv
)

// MTMalloc is IMB-MT's -malloc_algo.
type MTMalloc int

// The buffer allocations.
const (
	MTMallocSerial     MTMalloc = iota // each thread's, one after another, by the main thread
	MTMallocContinuous                 // one block for all threads
	MTMallocParallel                   // each thread its own
)

// MTCall is one IMB-MT run: an element count of a benchmark on every
// thread.
type MTCall struct {
	Op             MTOp
	Count          int      // elements
	Type           Datatype // Int or Char
	Warmup, Repeat int
	Stride, Window int
	Barrier        MTBarrierMode
	Check, Record  bool
}

// Params are what one kernel call needs besides its communicator.
type Params struct {
	Kernel ID
	Type   Datatype
	Count  int // elements per message (per block for v- and all-to-all collectives)
	// Large: IMB-MPI1's kernels of one count (mpi.LargeCount) through
	// MPI-4's large-count calls (MPI_Send_c, ...), for a Count or buffers
	// past INT_MAX; without it a Count past INT_MAX is refused.
	Large      bool
	Root       int  // root of the first call
	RootShift  bool // rotate the root every iteration
	Sync       bool // barrier after every collective call, outside the timer
	IMBBarrier bool // gomb's dissemination barrier instead of MPI_Barrier
	Source     Source
	Window     int // Uniband/Biband window
	// Off-cache cycling (IMB -off_cache): buffer i%CacheIter at offset
	// (i%CacheIter)*Offs. Zero values reuse one buffer.
	SendOffs, RecvOffs           int64
	SendCacheIter, RecvCacheIter int
	// Skip untimed iterations run first in the same loop (OSU's warm-up).
	Skip    int
	Pairs   bool // pair rank i with i+np/2 instead of 0 with np-1 (or 1)
	InPlace bool // collectives use MPI_IN_PLACE (OSU -l)
	// One-sided kernels.
	RMAOp    RMAOp
	RMAKind  RMAKind
	WinMode  WinMode
	SyncMode SyncMode
	// Non-blocking collectives: the operation, the compute per iteration
	// (seconds; 0 for pure communication) and the MPI_Test calls in it.
	NBCOp    NBCOp
	ComputeS float64
	NTest    int
	// Overlap: IMB-NBC's benchmarks that are not _pure run the pure loop,
	// then the loop with IMB's CPU exploit as long as the pure time.
	// Persist: IMB-MPI4's, the same with a persistent request.
	Overlap, Persist bool
	// IMB-EXT and IMB-RMA: the benchmark, and IMB's aggregate mode (one
	// fence or flush after all the repetitions' operations) or not (one
	// each).
	EXTOp     EXTOp
	IMBRMAOp  IMBRMAOp
	Aggregate bool
	// IMB-P2P's.
	P2P P2P
	// IMB-IO's.
	IO IO
	// OSUFan: fan-out (the parents send) rather than fan-in.
	FanOut bool
	// OSULatency: an MPI_Barrier before every iteration (osu_latency_mp).
	IterBarrier bool
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

// Collective is the MPI collective operation a kernel times, as the MPI
// libraries' algorithm tables name it ("allreduce", "bcast"); "" for
// point-to-point, one-sided and other kernels.
func (k ID) Collective() string {
	switch k {
	case Barrier, BarrierCalls:
		return "barrier"
	case Bcast:
		return "bcast"
	case Scatter:
		return "scatter"
	case Gather:
		return "gather"
	case Allgather:
		return "allgather"
	case Reduce:
		return "reduce"
	case ReduceScatter, ReduceScatterSplit:
		return "reduce_scatter"
	case ReduceScatterBlock:
		return "reduce_scatter_block"
	case Allreduce:
		return "allreduce"
	case Alltoall:
		return "alltoall"
	case Alltoallw:
		return "alltoallw"
	}
	return ""
}

// CongPattern is a gomb congestion congestor (values mirror congest.h).
type CongPattern int

// GPCNeT's congestors.
const (
	CongAlltoall  CongPattern = iota // pairwise exchange with every member
	CongIncast                       // every member sends to the first
	CongPutIncast                    // every member puts into the first's window
	CongGetBcast                     // every member gets from the first's window
)
