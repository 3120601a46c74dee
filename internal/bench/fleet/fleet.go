// Package fleet declares gomb fleet's pairwise sweep: every pair of nodes
// (and of their ranks' NICs) measured for latency and bandwidth inside one
// job, in rounds of disjoint pairs, so that a sweep over N nodes takes
// about N rounds rather than N² launches. It holds the options and flags,
// the grouping of ranks into nodes and the schedule of rounds; package
// fleetrun runs it, package analysis names the slow node or link.
package fleet

import (
	"flag"
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
)

// Suite is the records' suite name.
const Suite = "fleet"

// The two measurements of a pair, as the records name them.
const (
	// Latency is a ping-pong of LatBytes, osu_latency's loop: the lower
	// rank times each round trip; a sample is half of one.
	Latency = "pair_latency"
	// Bandwidth is osu_bw's loop from the pair's first rank to its
	// second: a window of MPI_Isend of BWBytes, a 4-byte reply; a sample
	// is one window's time.
	Bandwidth = "pair_bw"
)

func init() {
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: Latency, Label: "gomb fleet latency", Lead: bench.LeadAvgTime, Latency: true})
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: Bandwidth, Label: "gomb fleet bandwidth", Lead: bench.LeadBandwidth, Directions: 1})
}

// Ranks per node that take part.
const (
	PerNodeOne   = "one"   // the node's first rank only
	PerNodeAll   = "all"   // every rank, the i-th of a node with the i-th of its partner (a rail each)
	PerNodeCross = "cross" // every rank with every rank of the partner: every NIC pair, in sub-rounds
)

// Options are a sweep's settings, recorded in the run record. The JSON
// names are part of the record schema.
type Options struct {
	LatBytes int64 `json:"lat_bytes"`
	LatIters int   `json:"lat_iters"`
	BWBytes  int64 `json:"bw_bytes"`
	BWIters  int   `json:"bw_iters"`
	Window   int   `json:"window"`
	// Warmup: untimed round trips before the latency loop (at least one;
	// osu_bw's 2 windows before the bandwidth loop, or fewer).
	Warmup int `json:"warmup"`
	// BudgetS: a loop's timed iterations are cut to what fits in so many
	// seconds at the warm-up's pace (a slow link must not stall the sweep).
	BudgetS float64 `json:"budget_s"`
	PerNode string  `json:"per_node"`
	Serial  bool    `json:"serial,omitempty"` // one pair at a time: no pair shares the fabric with another
	Sweeps  int     `json:"sweeps"`           // the whole schedule, this many times
	// ByRank: every rank is a node of its own ("host:rank"), for pairs of
	// ranks on one machine (tests, core-to-core sweeps).
	ByRank bool `json:"by_rank,omitempty"`
	// Resume is the records of an earlier sweep of the same nodes and
	// flags: its pairs are taken over, the others measured.
	Resume string `json:"resume,omitempty"`
}

// Measures reports whether o and p measure alike: every option but
// Resume the same.
func (o Options) Measures(p Options) bool {
	o.Resume, p.Resume = "", ""
	return o == p
}

// DefaultOptions: osu_latency's 8 bytes and osu_bw's 1 MiB in its window
// of 64 (osu_bw's 20 windows after 2 for large messages), 1000 round trips
// after 100, a second a loop at most, one rank a node, concurrent pairs,
// one sweep.
func DefaultOptions() Options {
	return Options{LatBytes: 8, LatIters: 1000, BWBytes: 1 << 20, BWIters: 20, Window: 64, Warmup: 100, BudgetS: 1,
		PerNode: PerNodeOne, Sweeps: 1}
}

// BWWarmup is the bandwidth loop's untimed windows: osu_bw's 2 for large
// messages, at least one, at most -x.
func (o *Options) BWWarmup() int { return max(1, min(2, o.Warmup)) }

// CommandLine is gomb fleet's command line.
type CommandLine struct {
	Options
}

// NewCommandLine holds the defaults.
func NewCommandLine() *CommandLine { return &CommandLine{Options: DefaultOptions()} }

// Register adds gomb fleet's flags to fs.
func (c *CommandLine) Register(fs *flag.FlagSet) {
	o := &c.Options
	size := func(p *int64) func(string) error { return bench.SizeFlag(p, 0, math.MaxInt32) } // an MPI count of bytes
	fs.Func("lat", "`SIZE` latency message (k, m suffixes; default 8)", size(&o.LatBytes))
	fs.Func("bw", "`SIZE` bandwidth message (default 1m)", size(&o.BWBytes))
	fs.Func("i", "`N` latency round trips a pair (default 1000)", cli.AtLeast(1, "round trips", func(v int) { o.LatIters = v }))
	fs.Func("bw-iter", "`N` bandwidth windows a pair (default 20)", cli.AtLeast(1, "windows", func(v int) { o.BWIters = v }))
	fs.Func("w", "`N` messages in a bandwidth window (default 64)", cli.AtLeast(1, "messages", func(v int) { o.Window = v }))
	fs.Func("budget", "`D` about the most one loop of a pair takes (1s, 500ms): its warm-up, then its timed iterations, cut to what fits at the pace of the first (default 1s)",
		cli.Seconds(&o.BudgetS))
	fs.Func("x", "`N` untimed round trips before the latency loop, at least 1 (default 100); the bandwidth loop's: 2 windows, or fewer",
		cli.AtLeast(0, "warm-up iterations", func(v int) { o.Warmup = v }))
	fs.Func("per-node", "`one|all|cross` ranks of a node that take part: its first; all, the i-th with the partner's i-th (a NIC each); cross, every rank with every rank of the partner (default one)",
		func(s string) error {
			switch s {
			case PerNodeOne, PerNodeAll, PerNodeCross:
				o.PerNode = s
				return nil
			}
			return fmt.Errorf("want one, all or cross, got %q", s)
		})
	fs.BoolVar(&o.Serial, "serial", false, "one pair at a time (N(N-1)/2 rounds): no pair shares the fabric with another")
	fs.BoolVar(&o.ByRank, "by-rank", false, "every rank a node of its own (host:rank): pairs of ranks, also on one machine")
	fs.Func("sweeps", "`N` run the whole schedule N times (default 1)", cli.AtLeast(1, "sweeps", func(v int) { o.Sweeps = v }))
	fs.StringVar(&o.Resume, "resume", "", "`FILE` the records of an earlier sweep of these nodes with these flags (one cut short by -deadline, a signal or a lost node): its pairs are kept, copied into this job's records, and the others measured")
}

// Inputs are the files gomb fleet reads (its outputs must be others).
func (c *CommandLine) Inputs() []cli.Named { return []cli.Named{{Flag: "-resume", Path: c.Resume}} }

// Finish checks what no single flag can: gomb fleet takes no names.
func (c *CommandLine) Finish(names []string) error {
	if len(names) > 0 {
		return fmt.Errorf("gomb fleet takes no benchmark names, got %q (it measures %s and %s of every pair)", names[0], Latency, Bandwidth)
	}
	return nil
}
