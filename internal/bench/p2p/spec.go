// Package p2p declares IMB-P2P's benchmarks (IMB 2021 src_c/P2P), one
// file each, and its rules: options and flags, message sizes, iterations
// per size, process grids, and how a row comes from the ranks' loop times.
// IMB-P2P is a program of its own, not IMB's common driver: every
// benchmark runs over all the processes started, a size at a time, with
// its iterations fixed by the size (no time budget) and a pause before
// and after each size. The package is plain Go; package p2prun runs the
// specs.
package p2p

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Suite is the registry name of IMB-P2P's benchmarks.
const Suite = "imb-p2p"

// RowKind is how IMB-P2P turns the ranks' loop times into a row.
type RowKind int

// The row kinds.
const (
	// RoundTrip: every rank takes part in n round trips (PingPong); t is
	// half the mean loop time per iteration.
	RoundTrip RowKind = iota
	// PerIteration: every rank sends and receives once per iteration
	// (PingPing, SendRecv_Replace); t is the mean loop time per iteration.
	PerIteration
	// Counted: the ranks count the messages they sent and received
	// (random partners, stencils); half the total is the messages moved,
	// t the summed loop time per message.
	Counted
)

// Spec declares one IMB-P2P benchmark.
type Spec struct {
	Name  string // as IMB-P2P prints it
	Op    kernel.P2POp
	Order int // position in the default list
	Kind  RowKind
	// Grid is the process grid of a stencil for np processes (IMB's
	// dimensions, outermost first, as its header prints them) and the
	// neighbours of rank me in it; nil for the others.
	Grid func(np, me int) (dims, neighbours []int, ok bool)
	// Valid says whether the benchmark runs with np processes (stencils:
	// Grid decides).
	Valid func(np int) bool
	// Invalid is IMB-P2P's line when it does not run (its wording differs
	// between benchmarks), with %s for the name and %d for np.
	Invalid string
	// Buffers is the number of send (and receive) buffers of the largest
	// size the benchmark holds: one, or one per neighbour.
	Buffers int
	// Latency: the time is one message's (ping-pong, ping-ping) for the
	// interpretation side.
	Latency bool
	Summary string
}

// Runs reports whether s runs with np processes.
func (s *Spec) Runs(np int) bool {
	if s.Grid != nil {
		_, _, ok := s.Grid(np, 0)
		return ok
	}
	return s.Valid(np)
}

// InvalidLine is IMB-P2P's line for s with np processes.
func (s *Spec) InvalidLine(np int) string { return fmt.Sprintf(s.Invalid, s.Name, np) }

// Title is the benchmark as its table header names it: the stencils
// add their grid, "Stencil2D (2 x 2)".
func (s *Spec) Title(np int) string {
	if s.Grid == nil {
		return s.Name
	}
	dims, _, ok := s.Grid(np, 0)
	if !ok {
		return s.Name
	}
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = fmt.Sprint(d)
	}
	return s.Name + " (" + strings.Join(parts, " x ") + ")"
}

// Traits is what the interpretation side knows of the benchmark.
func (s *Spec) Traits() bench.Traits {
	return bench.Traits{Suite: Suite, Name: s.Name, Label: s.Name, Lead: bench.LeadAvgTime, Latency: s.Latency}
}

// Row is IMB-P2P's row for a size of bytes with n iterations on np
// processes, from every rank's loop time (seconds) and messages: t in µs,
// Mbytes/sec (10^6 bytes) and Msg/sec, IMB's formulas to the letter.
func (s *Spec) Row(size int64, n, np int, times, msgs []float64) (tUS, mbps, rate float64) {
	maxT, sumT := 0.0, 0.0
	for _, t := range times {
		maxT = max(maxT, t)
		sumT += t
	}
	if maxT <= 0 {
		return 0, 0, 0
	}
	switch s.Kind {
	case Counted:
		total := 0.0
		for _, m := range msgs {
			total += m
		}
		moved := float64(int64(total) / 2)
		if moved <= 0 {
			return 0, 0, 0
		}
		return 1e6 * sumT / moved, moved * float64(size) / (1e6 * maxT), moved / maxT
	case RoundTrip:
		k := float64(n) * float64(np)
		return 1e6 * sumT / (2 * k), k * float64(size) / (1e6 * maxT), k / maxT
	}
	k := float64(n) * float64(np)
	return 1e6 * sumT / k, k * float64(size) / (1e6 * maxT), k / maxT
}

var registry bench.Registry[*Spec]

// Register adds a benchmark; a duplicate or incomplete Spec panics (a
// programming error the registry test finds).
func Register(s *Spec) {
	if !complete(s) {
		panic(fmt.Sprintf("p2p: incomplete spec %+v", s))
	}
	if !registry.Add(s.Name, s) {
		panic("p2p: duplicate benchmark " + s.Name)
	}
	bench.RegisterTraits(s.Traits())
}

// Lookup finds a benchmark by case-insensitive name.
func Lookup(name string) (*Spec, bool) { return registry.Lookup(name) }

// Specs returns the benchmarks in the suite's order.
func Specs() []*Spec { return registry.Sorted(func(a, b *Spec) bool { return a.Order < b.Order }) }

// complete reports whether a spec has what the engine needs.
func complete(s *Spec) bool {
	return !(s.Name == "" || (s.Grid == nil) == (s.Valid == nil) || s.Invalid == "" || s.Buffers < 1)
}

// Names are the benchmarks' names in the default order.
func Names() []string {
	var out []string
	for _, s := range Specs() {
		out = append(out, s.Name)
	}
	return out
}

// pairs: PingPong and PingPing pair rank i with i + np/2.
func pairs(np int) bool { return np >= 2 && np%2 == 0 }

// twoOrMore: the benchmarks of any np from 2 on.
func twoOrMore(np int) bool { return np >= 2 }

// IMB-P2P's invalid lines.
const (
	isInvalid      = "# !! Benchmark %s is invalid for %d processes !!"
	invalidNoIs    = "# !! Benchmark %s invalid for %d processes !!"
	invalidProcess = "# !! Benchmark %s is invalid for %d process !!"
)
