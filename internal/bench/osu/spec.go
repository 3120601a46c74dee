// Package osu declares the OSU Micro-Benchmarks 7 tests gomb runs (one
// file each), OSU's run options and measurement rules, and what a run
// hands its sinks (Table, Sink). It is plain Go (no cgo): the analysis
// side reads the specs without linking MPI; the engine that runs them is
// package osurun. Semantics are OSU 7.2's: fixed iteration and
// warm-up counts for small and large messages (large: above 8 KiB), warm-up
// as the first iterations of the same loop, per-iteration timing summed,
// window 64 for bandwidth, MB = 10^6 bytes, MPI_CHAR by default.
package osu

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Suite is the registry name of the OSU suite.
const Suite = "osu"

// ThreadLevel is how OSU's MPI tests start MPI: plain MPI_Init.
const ThreadLevel = kernel.NoThreadInit

// Kind is what a test measures and how it reports.
type Kind int

// The kinds.
const (
	Latency      Kind = iota // point-to-point latency: half the round trip (osu_latency, osu_multi_lat)
	Bandwidth                // MB/s over a window (osu_bw, osu_bibw)
	MsgRate                  // aggregate MB/s and messages/s of all pairs (osu_mbw_mr)
	RMALatency               // one-sided latency
	RMABandwidth             // one-sided bandwidth
	Collective               // blocking collective: avg (min, max) latency over the ranks
	NonBlocking              // non-blocking collective: overall, compute, pure communication, overlap
	OneWay                   // gomb: one-way latency per direction on synchronised clocks
	Startup                  // osu_init, osu_hello: MPI_Init's time over the ranks, or that the job ran
)

// Spec declares one OSU test.
type Spec struct {
	Name  string // gomb's name: the OSU program without "osu_", e.g. "latency"
	Title string // OSU's title, without "# " and the version
	// Version is the OSU release whose test this is, where it is newer
	// than the one gomb's layout follows (osutext.Version).
	Version string
	Kind    Kind
	Job     kernel.Params // kernel and its fixed traits (op, pairs, ...)
	// NoSize: no message size (barrier, ibarrier). FixedSize: the only
	// size (fetch_and_op, compare_and_swap: one 8-byte element).
	NoSize    bool
	FixedSize int64
	// MaxLog is the default largest size, log2 (22 point-to-point and
	// one-sided, 20 collectives).
	MaxLog int
	// SplitCount: the size is the whole, each rank's block a np-th of its
	// elements, rounded down (osu_reduce_scatter_block's recvcount).
	SplitCount bool
	// Threads: osu_latency_mt's sender and receiver threads (-t) under
	// MPI_THREAD_MULTIPLE instead of the kernel.
	Threads bool
	// Processes: osu_latency_mp's idle forked processes on each rank (-t).
	Processes bool
	// Rooted: a root (-k). Reduction: the data type is reduced with MPI_SUM.
	Rooted    bool
	Reduction bool
	// ExactRanks: the test needs exactly this many processes (0: any
	// number from MinRanks up).
	ExactRanks int
	MinRanks   int
	// Window and Sync: one-sided defaults and the synchronisations the
	// test accepts (-w, -s).
	Win       kernel.WinMode
	Sync      kernel.SyncMode
	SyncModes []kernel.SyncMode
	// BWFactor multiplies bandwidth (2: both directions).
	BWFactor float64
	// Buffers gives send and receive buffer bytes for a size, process
	// count and window.
	Buffers func(size int64, np, window int) (send, recv int64)
	Summary string

	// What the interpretation side reads (bench.Traits; lead number,
	// latency kind and sizelessness follow from Kind and NoSize):
	// Reference: OSU's reference ping-pong (α, β, fabric class);
	// Directions: link directions one transfer loads (0: none compared);
	// Bus, Cost: the collective's bus factor and cost model.
	Reference  bool
	Directions int
	Bus        func(p float64) float64
	Cost       func(t bench.P2P, n, p float64) float64
}

// Traits is what the interpretation side knows of the test.
func (s *Spec) Traits() bench.Traits {
	t := bench.Traits{Suite: Suite, Name: s.Name, Label: "osu_" + s.Name, Lead: bench.LeadAvgTime,
		Latency: s.Kind == Latency, Reference: s.Reference, Rooted: s.Rooted, Sizeless: s.NoSize,
		Directions: s.Directions, Bus: s.Bus, Cost: s.Cost, Reduction: s.Reduction,
		Collective: s.Job.Kernel.Collective(), Pairs: s.Job.Pairs, Group: s.Kind == Collective || s.Kind == NonBlocking,
		OneSided: s.Kind == RMALatency || s.Kind == RMABandwidth}
	switch s.Kind {
	case Bandwidth, MsgRate, RMABandwidth:
		t.Lead = bench.LeadBandwidth // OSU prints MB/s only
	}
	return t
}

var (
	regMu    sync.RWMutex
	registry = map[string]*Spec{}
)

// Register adds a test; a duplicate or incomplete spec is a programming
// error.
func Register(s *Spec) {
	if s.Name == "" || s.Title == "" || !s.Job.Kernel.Valid() && s.Kind != Startup || s.Buffers == nil {
		panic(fmt.Sprintf("osu: incomplete spec %+v", s))
	}
	regMu.Lock()
	defer regMu.Unlock()
	k := strings.ToLower(s.Name)
	if _, dup := registry[k]; dup {
		panic("osu: duplicate test " + s.Name)
	}
	registry[k] = s
	bench.RegisterTraits(s.Traits())
}

// Lookup finds a test by name, with or without the "osu_" prefix.
func Lookup(name string) (*Spec, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := registry[strings.TrimPrefix(strings.ToLower(name), "osu_")]
	return s, ok
}

// Specs returns every test, by kind then name.
func Specs() []*Spec {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []*Spec
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SameBuffers: one message each way.
func SameBuffers(size int64, np, window int) (int64, int64) { return size, size }

// WindowBuffers: one-sided bandwidth puts a window of messages at distinct
// offsets.
func WindowBuffers(size int64, np, window int) (int64, int64) {
	return size * int64(window), size * int64(window)
}

var syncNames = map[kernel.SyncMode][2]string{
	kernel.SyncLock:       {"lock", "MPI_Win_lock/unlock"},
	kernel.SyncFlush:      {"flush", "MPI_Win_flush"},
	kernel.SyncFlushLocal: {"flush_local", "MPI_Win_flush_local"},
	kernel.SyncLockAll:    {"lock_all", "MPI_Win_lock_all/unlock_all"},
	kernel.SyncPSCW:       {"pscw", "MPI_Win_post/start/complete/wait"},
	kernel.SyncFence:      {"fence", "MPI_Win_fence"},
}

var winNames = map[kernel.WinMode][2]string{
	kernel.WinCreate:   {"create", "MPI_Win_create"},
	kernel.WinAllocate: {"allocate", "MPI_Win_allocate"},
	kernel.WinDynamic:  {"dynamic", "MPI_Win_create_dynamic"},
}

// SyncName is the MPI name of a synchronisation, as OSU prints it.
func SyncName(m kernel.SyncMode) string { return syncNames[m][1] }

// WinName is the MPI name of a window creation, as OSU prints it.
func WinName(m kernel.WinMode) string { return winNames[m][1] }

// ParseSync reads -s.
func ParseSync(s string) (kernel.SyncMode, error) {
	for m, n := range syncNames {
		if strings.EqualFold(s, n[0]) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown synchronization %q (want lock, flush, flush_local, lock_all, pscw or fence)", s)
}

// ParseWin reads -w.
func ParseWin(s string) (kernel.WinMode, error) {
	for m, n := range winNames {
		if strings.EqualFold(s, n[0]) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown window creation %q (want create, allocate or dynamic)", s)
}

var allSyncs = []kernel.SyncMode{kernel.SyncLock, kernel.SyncFlush, kernel.SyncFlushLocal, kernel.SyncLockAll, kernel.SyncPSCW, kernel.SyncFence}

// Neighbour reports whether s is a neighbourhood collective
// (osu_neighbor_*, osu_ineighbor_*): it runs on the graph of -N.
func (s *Spec) Neighbour() bool {
	return s.Job.Kernel == kernel.Neighbor || s.Job.Kernel == kernel.NBC && s.Job.NBCOp.Neighbourhood()
}

// IsFan reports whether s is osu_bw_fan_in or osu_bw_fan_out: ranks on two
// or more hosts, laid out by Fan.
func (s *Spec) IsFan() bool { return s.Job.Kernel == kernel.OSUFan }
