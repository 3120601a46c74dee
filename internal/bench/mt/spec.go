// Package mt declares IMB-MT's benchmarks (IMB 2021 src_cpp/MT), one file
// each, and its rules: options and flags, and how a row comes from every
// thread's time. In IMB-MT every thread of every rank runs the benchmark
// on a communicator of its own; a row is one element count. The package
// is plain Go; package mtrun runs the specs.
package mt

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Suite is the registry name of IMB-MT's benchmarks.
const Suite = "imb-mt"

// Format is a table's columns (IMB-MT's OUT_ flags).
type Format int

// The formats.
const (
	// PointToPoint: #bytes #repetitions t_min t_max t_avg Mbytes/sec.
	PointToPoint Format = iota
	// Band: #bytes #repetitions t_avg Mbytes/sec Msg/sec, the last two
	// over all pairs (IMB's cumulative ones).
	Band
	// Collective: #bytes #repetitions t_min t_max t_avg.
	Collective
	// Sync: #repetitions t_min t_max t_avg (BarrierMT).
	Sync
)

// Spec declares one IMB-MT benchmark.
type Spec struct {
	Name  string
	Op    kernel.MTOp
	Order int
	// Separate: each call timed alone, the barrier five times after it
	// (IMB's SEPARATE_MEASURING: the collectives); else one loop timed.
	Separate bool
	Format   Format
	// Divide is what the times are divided by besides the repetitions
	// (PingPongMT's 2, a round trip); Window: and by -window_size.
	Divide float64
	Window bool
	// BWScale is the bandwidth factor (SendRecvMT 2, ExchangeMT 4).
	BWScale float64
	// RecvTwice: the receive buffer holds two messages (ExchangeMT).
	RecvTwice bool
	// Latency: the time is one message's, for the interpretation side.
	Latency bool
	// Pairs: rank i works with rank i + stride (IMB-MT's set_stride); a
	// rank without a partner gives no result.
	Pairs   bool
	Summary string
}

// Unpaired reports whether no rank of np has a partner at the -stride of
// o (0: half the ranks), as IMB-MT's set_stride decides: a pair
// benchmark would then print "NO SUCCESSFUL EXECUTIONS".
func (s *Spec) Unpaired(o *Options, np int) bool {
	stride := o.Stride
	if stride == 0 {
		stride = np / 2
	}
	return s.Pairs && (stride <= 0 || stride > np/2)
}

// Sizeless reports whether the benchmark has no message size (BarrierMT:
// IMB-MT runs it once, with count 0).
func (s *Spec) Sizeless() bool { return s.Format == Sync }

// Traits is what the interpretation side knows of the benchmark.
func (s *Spec) Traits() bench.Traits {
	return bench.Traits{Suite: Suite, Name: s.Name, Label: s.Name, Lead: bench.LeadAvgTime, Latency: s.Latency,
		Sizeless: s.Sizeless()}
}

var registry bench.Registry[*Spec]

// Register adds a benchmark; a duplicate or incomplete Spec panics (a
// programming error the registry test finds).
func Register(s *Spec) {
	if !complete(s) {
		panic(fmt.Sprintf("mt: incomplete spec %+v", s))
	}
	if !registry.Add(s.Name, s) {
		panic("mt: duplicate benchmark " + s.Name)
	}
	bench.RegisterTraits(s.Traits())
}

// Lookup finds a benchmark by case-insensitive name.
func Lookup(name string) (*Spec, bool) { return registry.Lookup(name) }

// Specs returns the benchmarks in the suite's order.
func Specs() []*Spec { return registry.Sorted(func(a, b *Spec) bool { return a.Order < b.Order }) }

// complete reports whether a spec has what the engine needs.
func complete(s *Spec) bool {
	return !(s.Name == "" || s.Divide <= 0 || s.BWScale <= 0 || s.Summary == "")
}

// Names are the benchmarks' names in IMB-MT's order.
func Names() []string {
	var out []string
	for _, s := range Specs() {
		out = append(out, s.Name)
	}
	return out
}

// Row is IMB-MT's row from what its MPI_Allreduce calls gather: the
// smallest and largest thread time over all ranks (seconds; a thread
// without a result counts 0), their sum and the number of results. It
// returns t_min, t_max, t_avg in µs per repetition, and Mbytes/sec and
// Msg/sec as IMB-MT prints them for the format; bytes are the count's
// bytes times the threads (IMB-MT measures weak scaling).
func (s *Spec) Row(tMin, tMax, tSum float64, results, threads, repeat, window int, bytes int64) (minUS, maxUS, avgUS, mbps, rate float64) {
	if results > 0 {
		tSum /= float64(results)
	}
	div := float64(repeat) * s.Divide
	if s.Window {
		div *= float64(window)
	}
	tMin, tMax, tAvg := tMin/div, tMax/div, tSum/div
	switch s.Format {
	case PointToPoint:
		mbps = float64(bytes) * s.BWScale / tMax / 1e6
	case Band:
		pairs := float64(results / 2)
		mbps = float64(bytes) / float64(threads) * s.BWScale * pairs / tMax / 1e6
		rate = float64(int64(pairs / tAvg))
	}
	return 1e6 * tMin, 1e6 * tMax, 1e6 * tAvg, mbps, rate
}
