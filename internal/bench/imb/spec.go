package imb

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// Family is the shape of a benchmark, as IMB classifies them; it decides
// which process counts are valid and which table layout is printed.
type Family int

// The families.
const (
	// SingleTransfer: one message between two ranks (PingPong, PingPing);
	// runs only with 2 active processes.
	SingleTransfer Family = iota
	// ParallelTransfer: every active rank sends and receives (Sendrecv,
	// Exchange).
	ParallelTransfer
	// MsgRate: pairs stream windows of messages (Uniband, Biband).
	MsgRate
	// Collective: a collective call per iteration, timed per call.
	Collective
	// Sync: no message size (Barrier).
	Sync
	// MultPassive: rank 0 alone drives every other rank's window (IMB-RMA's
	// MultPassiveTransfer: One_put_all, Put_all_local, ...); t[usec] is its
	// time.
	MultPassive
)

// Spec declares one benchmark. Everything about a benchmark is here; the
// engine and the renderers read only these traits.
type Spec struct {
	Suite  string // "imb", "imb-nbc"
	Name   string // as printed, e.g. "PingPong"
	Kernel kernel.ID
	Family Family
	// Default: part of the suite's default list; Order: position in it
	// (benchmarks outside the default list sort after).
	Default bool
	Order   int
	// TimeScale multiplies the measured time per repetition before it is
	// reported (0.5: PingPong reports half a round trip).
	TimeScale float64
	// BWScale is IMB's bandwidth factor (bytes moved per reported time
	// over the message size); 0 means no bandwidth column.
	BWScale float64
	// Reduction: elements are the reduction type (-red_data_type), sizes
	// are rounded to its size.
	Reduction bool
	// Rooted: a root rank (Bcast, Gather, Scatter, Reduce); -iter_policy
	// auto uses multiple_np for these.
	Rooted bool
	// Source: how point-to-point receives match.
	Source kernel.Source
	// Overlap: the benchmark runs the pure loop, then the loop with IMB's
	// CPU exploit, and prints t_ovrl, t_pure, t_CPU, overlap (IMB-NBC's
	// collectives but the _pure ones, IMB-IO's I variants).
	Overlap bool
	// Modes: it runs in IMB's two modes, aggregate then non-aggregate, a
	// table each (IMB-EXT, IMB-RMA, IMB-IO); NonAggr: the repetitions come
	// from -iter's msgs_nonaggr in every mode (Window).
	Modes, NonAggr bool
	// Comments are IMB's lines under the benchmark's name in the run
	// header's list.
	Comments []string
	// Buffers gives the send and receive buffer sizes in bytes for a
	// message size and process count.
	Buffers func(size int64, np int) (send, recv int64)
	// Summary is one line for -list and -help.
	Summary string

	// Interp is what the interpretation side reads beyond the core.
	Interp
	// The suites' own parts: each is zero outside its suite, declared
	// beside the suite's code (nbc.go, ext.go, rma.go, io.go).
	NBCPart
	EXTPart
	RMAPart
	IOPart
}

// Interp is the part of a Spec the interpretation side reads (bench.Traits;
// lead number, latency kind and sizelessness follow from the family).
type Interp struct {
	// Reference: IMB's reference ping-pong (α, β, fabric class);
	// Directions: link directions one transfer loads (0: none compared).
	Reference  bool
	Directions int
	// Sends: messages each rank sends in one reported time; the
	// point-to-point benchmarks with it are compared as siblings.
	Sends int
	// Bus, Cost: the collective's bus factor and cost model.
	Bus  func(p float64) float64
	Cost func(t bench.P2P, n, p float64) float64
	// Split: the size is the whole vector, divided among the ranks
	// (bench.Traits.Split).
	Split bool
}

// Traits is what the interpretation side knows of the benchmark.
func (s *Spec) Traits() bench.Traits {
	t := bench.Traits{Suite: s.Suite, Name: s.Name, Label: s.Name, Lead: bench.LeadAvgTime,
		Latency: s.Family == SingleTransfer, Reference: s.Reference, Rooted: s.Rooted, Sizeless: !s.HasSize(),
		Directions: s.Directions, Sends: s.Sends, Bus: s.Bus, Cost: s.Cost,
		Reduction: s.Reduction && s.Family == Collective, LocalReduction: s.Kernel == kernel.ReduceLocal,
		Collective: s.Kernel.Collective(), Split: s.Split,
		// IMB-EXT's Window and Accumulate are of the collective family (every
		// rank takes part) but time window creation and one-sided
		// operations: no collective call
		Group: (s.Family == Collective || s.Family == Sync) && s.Kernel != kernel.IMBIO && s.Suite != SuiteEXT && s.Suite != SuiteRMA,
		// Window times MPI_Win_create and MPI_Win_free, no operation
		OneSided: s.Suite == SuiteEXT && s.EXTOp != kernel.EXTWindow || s.Suite == SuiteRMA}
	if s.Kernel == kernel.IMBNBC {
		t.Collective = s.NBCOp.Collective()
	}
	switch s.Family {
	case SingleTransfer, MultPassive:
		t.Lead = bench.LeadMaxTime // IMB prints t[usec], the slower rank's
	case MsgRate:
		t.Lead = bench.LeadBandwidth // Uniband, Biband: IMB prints MB/s and msg/s, no time
	}
	if s.Kernel == kernel.IMBIO {
		t.Latency = false // IMB-IO's S_ benchmarks are one process's file I/O
	}
	return t
}

// MinRanks is the smallest active process count the benchmark is valid for.
func (s *Spec) MinRanks() int {
	if s.Kernel == kernel.IMBIO {
		return 1 // IMB-IO runs everything from one process up
	}
	switch s.Family {
	case SingleTransfer, MsgRate, MultPassive:
		return 2
	}
	return 1
}

// Valid reports whether the benchmark runs with np active processes; skip
// is true where IMB silently skips (PingPong beyond 2 processes) and false
// where it prints "invalid".
func (s *Spec) Valid(np int) (ok, skip bool) {
	if np < s.MinRanks() {
		return false, false
	}
	if s.Family == SingleTransfer && np > 2 || s.IO.Single && np > 1 {
		return false, true
	}
	return true, false
}

// RunModes are the modes the benchmark runs in, in IMB's order: ""
// (IMB has none) or aggregate, then non-aggregate.
func (s *Spec) RunModes() []string {
	switch {
	case s.AggregateOnly:
		return []string{result.ModeAggregate}
	case s.Modes && s.NonAggrFirst:
		return []string{result.ModeNonAggregate, result.ModeAggregate}
	case s.Modes:
		return []string{result.ModeAggregate, result.ModeNonAggregate}
	}
	return []string{""}
}

// PerRepetition reports whether every repetition of the mode has a time
// of its own (samples): not where one synchronisation completes them all.
func (s *Spec) PerRepetition(mode string) bool {
	return !s.Batched && mode != result.ModeAggregate
}

// HasSize reports whether the benchmark sweeps message sizes.
func (s *Spec) HasSize() bool { return s.Family != Sync }

// SameBuffers is the buffer rule of most benchmarks: one message each way.
func SameBuffers(size int64, np int) (int64, int64) { return size, size }

var (
	regMu    sync.RWMutex
	registry = map[string]*Spec{}
)

func key(suite, name string) string { return suite + "/" + strings.ToLower(name) }

// Register adds a benchmark. It panics on a duplicate or incomplete Spec:
// that is a programming error, found by the conformance test.
func Register(s *Spec) {
	if s.Suite == "" || s.Name == "" || !s.Kernel.Valid() || s.Buffers == nil || s.TimeScale <= 0 {
		panic(fmt.Sprintf("bench: incomplete spec %+v", s))
	}
	regMu.Lock()
	defer regMu.Unlock()
	k := key(s.Suite, s.Name)
	if _, dup := registry[k]; dup {
		panic("bench: duplicate benchmark " + k)
	}
	registry[k] = s
	bench.RegisterTraits(s.Traits())
}

// Lookup finds a benchmark by case-insensitive name.
func Lookup(suite, name string) (*Spec, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := registry[key(suite, name)]
	return s, ok
}

// registerTable registers a suite's table of pure-data benchmarks with the
// suite's register function, each default one's Order its position in
// the table (the tables are written in the suite's own order).
func registerTable(table []*Spec, register func(*Spec)) {
	for i, s := range table {
		s.Order = i + 1
		register(s)
	}
}

// Specs returns the suite's benchmarks: default ones in run order, then
// the others by name.
func Specs(suite string) []*Spec {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []*Spec
	for _, s := range registry {
		if s.Suite == suite {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Default != b.Default {
			return a.Default
		}
		if a.Default && a.Order != b.Order {
			return a.Order < b.Order
		}
		return a.Name < b.Name
	})
	return out
}

// DefaultSpecs returns the suite's default list in run order.
func DefaultSpecs(suite string) []*Spec {
	var out []*Spec
	for _, s := range Specs(suite) {
		if s.Default {
			out = append(out, s)
		}
	}
	return out
}
