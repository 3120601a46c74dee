// Package congestion declares gomb congestion, after GPCNeT's
// network_load_test: canaries (a random-ring latency, a random-ring
// bandwidth with a barrier, a small allreduce) measured on a fifth of the
// nodes alone and then while the other nodes run congestors (all-to-all,
// incast, one-sided put incast and get broadcast); the congestion impact
// factor is the congested value over the isolated one. This package holds
// the options and flags and the plan of which node does what; package
// congestionrun runs it; package analysis computes the impact factors.
package congestion

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Suite is the records' suite name.
const Suite = "congestion"

// The canaries, as the records name them (GPCNeT's names in the comments).
const (
	// RRLatency is "RR Two-sided Lat (8 B)": each iteration a message to
	// and from both ring neighbours; a sample is half an iteration, usec.
	RRLatency = "rr_latency"
	// RRBandwidth is "RR Two-sided BW+Sync (131072 B)": each iteration
	// -bw-inflight messages to and from both neighbours, then a barrier
	// on the ring; a sample is an iteration's time, the rate the bytes
	// sent to both neighbours over it (MB/s a rank).
	RRBandwidth = "rr_bw"
	// Allreduce is "Multiple Allreduce (8 B)": MPI_Allreduce of one
	// double over the canaries; a sample is a call, usec.
	Allreduce = "allreduce"
)

// Tests are the canaries in the order they run.
var Tests = []string{RRLatency, RRBandwidth, Allreduce}

// The phases of a trial.
const (
	Isolated  = "isolated"  // the canaries alone, the congestors idle
	Congested = "congested" // the congestors running
)

// Patterns are the congestors by their names on the command line and in
// the records, in GPCNeT's order.
var Patterns = []struct {
	Name    string
	Pattern kernel.CongPattern
	Summary string
}{
	{"alltoall", kernel.CongAlltoall, "pairwise exchange with every member of the group"},
	{"incast", kernel.CongIncast, "every member sends to the group's first node"},
	{"put_incast", kernel.CongPutIncast, "every member puts into the first node's window, then flushes"},
	{"get_bcast", kernel.CongGetBcast, "every member gets from the first node's window, then flushes"},
}

func init() {
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: RRLatency, Label: "congestion canary: random-ring latency", Lead: bench.LeadAvgTime, Latency: true})
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: RRBandwidth, Label: "congestion canary: random-ring bandwidth", Lead: bench.LeadBandwidth, Directions: 2})
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: Allreduce, Label: "congestion canary: allreduce", Lead: bench.LeadAvgTime, Latency: true})
}

// Options are the test's settings, recorded in the run record. The JSON
// names are part of the record schema.
type Options struct {
	LatBytes     int64    `json:"lat_bytes"`
	LatIters     int      `json:"lat_iters"`
	BWBytes      int64    `json:"bw_bytes"`
	BWInflight   int      `json:"bw_inflight"`
	BWIters      int      `json:"bw_iters"`
	ReduceIters  int      `json:"allreduce_iters"`
	Rings        int      `json:"rings"`        // random rings, one a measurement in turn
	Measurements int      `json:"measurements"` // at most, a test a phase
	TestS        float64  `json:"test_s"`       // a test's time a phase: no measurement starts after
	Trials       int      `json:"trials"`       // isolated then congested, this many times
	Congestors   []string `json:"congestors"`   // Patterns' names
	CongBytes    int64    `json:"congestor_bytes"`
	Batch        int      `json:"batch,omitempty"`    // a congestor's operations between checks (0: GPCNeT's 16384 over its nodes, 1-256)
	CanaryShare  float64  `json:"canary_share"`       // of the nodes (GPCNeT: 0.2)
	Canaries     []string `json:"canaries,omitempty"` // hosts named (-canaries)
	Seed         int64    `json:"seed"`               // the nodes' shuffle and the rings (0: none, host order)
	PollS        float64  `json:"poll_s,omitempty"`   // congestors' waits sleep so long between tests (0: busy)
	ByRank       bool     `json:"by_rank,omitempty"`
}

// DefaultOptions are GPCNeT's sizes, iterations and node shares, with
// 5 s a test a phase (GPCNeT: 10), 3 trials (GPCNeT: 1) and seed 1.
func DefaultOptions() Options {
	return Options{LatBytes: 8, LatIters: 200, BWBytes: 131072, BWInflight: 8, BWIters: 8, ReduceIters: 200, Rings: 30,
		Measurements: 30, TestS: 5, Trials: 3, Congestors: names(), CongBytes: 4096, CanaryShare: 0.2, Seed: 1}
}

func names() []string {
	var n []string
	for _, p := range Patterns {
		n = append(n, p.Name)
	}
	return n
}

// PatternOf is the congestor named name.
func PatternOf(name string) (kernel.CongPattern, bool) {
	for _, p := range Patterns {
		if p.Name == name {
			return p.Pattern, true
		}
	}
	return 0, false
}

// Warmup is a test's untimed iterations a measurement: GPCNeT's (as many
// as timed for the latency ring, one for the others).
func (o *Options) Warmup(test string) int {
	if test == RRLatency {
		return o.LatIters
	}
	return 1
}

// Iters is a test's timed iterations a measurement.
func (o *Options) Iters(test string) int {
	switch test {
	case RRLatency:
		return o.LatIters
	case RRBandwidth:
		return o.BWIters
	}
	return o.ReduceIters
}

// Bytes is a test's message size.
func (o *Options) Bytes(test string) int64 {
	switch test {
	case RRLatency:
		return o.LatBytes
	case RRBandwidth:
		return o.BWBytes
	}
	return 8
}

// IterBytes is what a canary rank sends in one iteration of test: to both
// neighbours, inflight messages each (the ring tests).
func (o *Options) IterBytes(test string) int64 {
	switch test {
	case RRLatency:
		return 2 * o.LatBytes
	case RRBandwidth:
		return 2 * int64(o.BWInflight) * o.BWBytes
	}
	return 8
}

// CapS bounds a congested phase for the congestors: the canaries' three
// tests' time with room to spare.
func (o *Options) CapS() float64 { return 3*o.TestS*2 + 60 }

// CommandLine is gomb congestion's command line.
type CommandLine struct {
	Options
}

// NewCommandLine holds the defaults.
func NewCommandLine() *CommandLine { return &CommandLine{Options: DefaultOptions()} }

// Register adds gomb congestion's flags to fs.
func (c *CommandLine) Register(fs *flag.FlagSet) {
	o := &c.Options
	size := func(p *int64) func(string) error { return bench.SizeFlag(p, 1, math.MaxInt32/64) }
	fs.Func("lat", "`SIZE` the latency ring's message (default 8)", size(&o.LatBytes))
	fs.Func("bw", "`SIZE` the bandwidth ring's message (default 131072)", size(&o.BWBytes))
	fs.Func("bw-inflight", "`N` bandwidth ring messages to each neighbour an iteration (default 8)", cli.AtLeast(1, "messages", func(v int) { o.BWInflight = v }))
	fs.Func("lat-iter", "`N` latency ring iterations a measurement, after as many untimed (default 200)", cli.AtLeast(1, "iterations", func(v int) { o.LatIters = v }))
	fs.Func("bw-iter", "`N` bandwidth ring iterations a measurement, after one untimed (default 8)", cli.AtLeast(1, "iterations", func(v int) { o.BWIters = v }))
	fs.Func("allreduce-iter", "`N` allreduce calls a measurement, after one untimed (default 200)", cli.AtLeast(1, "calls", func(v int) { o.ReduceIters = v }))
	fs.Func("rings", "`N` random rings, a measurement each in turn (default 30)", cli.AtLeast(1, "rings", func(v int) { o.Rings = v }))
	fs.Func("measurements", "`N` at most a test a phase (default 30, each ring once; GPCNeT: 10000)", cli.AtLeast(1, "measurements", func(v int) { o.Measurements = v }))
	fs.Func("time", "`D` a test's time a phase: no measurement starts after it (default 5s; GPCNeT's 10s)", cli.Seconds(&o.TestS))
	fs.Func("trials", "`N` isolated then congested, N times: the impact factors' intervals (default 3)", cli.AtLeast(1, "trials", func(v int) { o.Trials = v }))
	fs.Func("congestors", "`LIST` the congestors, comma-separated: alltoall, incast, put_incast, get_bcast (default all four)",
		func(s string) error {
			var l []string
			for _, n := range strings.Split(s, ",") {
				if _, ok := PatternOf(n); !ok {
					return fmt.Errorf("no congestor %q (alltoall, incast, put_incast, get_bcast)", n)
				}
				l = append(l, n)
			}
			o.Congestors = l
			return nil
		})
	fs.Func("congestor-bytes", "`SIZE` the congestors' message (default 4096)", size(&o.CongBytes))
	fs.Func("batch", "`N` a congestor's operations between two looks at the canaries (default: GPCNeT's 16384 over its nodes, 1 to 256)",
		cli.AtLeast(1, "operations", func(v int) { o.Batch = v }))
	fs.Func("canary-share", "`F` the share of the nodes that run the canaries, at least 2 (default 0.2)",
		func(s string) error {
			v, err := cli.ParseFloat(s)
			if err != nil || v <= 0 || v >= 1 {
				return fmt.Errorf("want a share between 0 and 1, got %q", s)
			}
			o.CanaryShare = v
			return nil
		})
	fs.Func("canaries", "`HOSTS` the canary nodes, comma-separated (default: the share, drawn)",
		func(s string) error {
			o.Canaries = strings.Split(s, ",")
			return nil
		})
	fs.Var(cli.Int64{P: &o.Seed, What: "a seed"}, "seed", "`N` the shuffle of the nodes and the rings (0: no shuffle, host order)")
	fs.Func("poll", "`D` congestors wait sleeping so long between tests (100us) instead of polling: they load the fabric, not the cores (for oversubscribed nodes; default 0, busy)",
		cli.Seconds(&o.PollS))
	fs.BoolVar(&o.ByRank, "by-rank", false, "every rank a node of its own (host:rank), also on one machine")
}

// Finish checks what no single flag can: gomb congestion takes no names.
func (c *CommandLine) Finish(names []string) error {
	if len(names) > 0 {
		return fmt.Errorf("gomb congestion takes no benchmark names, got %q (its canaries: %s)", names[0], strings.Join(Tests, ", "))
	}
	return nil
}
