package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/result"
)

// fleetRun makes a sweep's records over n nodes: every pair of each
// round, each sweep, its latency and bandwidth from lat and bw (node
// indices, sweep), times a noise of up to ±noise drawn from rng.
func fleetRun(n, sweeps int, noise float64, rng *rand.Rand, lat, bw func(a, b, sweep int) float64) *result.Bundle {
	b := &result.Bundle{Run: &result.Run{Suite: fleet.Suite}}
	host := func(i int) string { return fmt.Sprintf("c%02d", i+1) }
	jitter := func() float64 { return 1 + noise*(2*rng.Float64()-1) }
	for s := 0; s < sweeps; s++ {
		for ri, round := range fleet.Tournament(n) {
			for _, p := range round {
				pair := &result.Pair{Ranks: [2]int{p[0], p[1]}, Hosts: [2]string{host(p[0]), host(p[1])}, Round: ri, Sweep: s, Concurrent: len(round)}
				l := lat(p[0], p[1], s) * jitter()
				w := bw(p[0], p[1], s) * jitter()
				b.Results = append(b.Results,
					&result.Result{Suite: fleet.Suite, Benchmark: fleet.Latency, NP: 2, Status: result.StatusOK, P50US: l, TAvgUS: l, Pair: pair},
					&result.Result{Suite: fleet.Suite, Benchmark: fleet.Bandwidth, NP: 2, Status: result.StatusOK, MBps: w, Pair: pair,
						NIC: []result.NICTraffic{{Host: host(p[0]), Name: "mlx5_0", Kind: "infiniband", TxBytes: 1 << 30},
							{Host: host(p[1]), Name: "mlx5_0", Kind: "infiniband", RxBytes: 1 << 30}}})
			}
		}
	}
	return b
}

func TestFleetCulprits(t *testing.T) {
	flat := func(v float64) func(a, b, s int) float64 { return func(int, int, int) float64 { return v } }
	slowNode := func(v float64, node int, by float64) func(a, b, s int) float64 {
		return func(a, b, _ int) float64 {
			if a == node || b == node {
				return v * by
			}
			return v
		}
	}
	slowLink := func(v float64, x, y int, by float64) func(a, b, s int) float64 {
		return func(a, b, _ int) float64 {
			if a == x && b == y || a == y && b == x {
				return v * by
			}
			return v
		}
	}
	// two slow nodes' pair: a bandwidth the slower one's
	both := func(f, g func(a, b, s int) float64) func(a, b, s int) float64 {
		return func(a, b, s int) float64 { return min(f(a, b, s), g(a, b, s)) }
	}
	cases := []struct {
		name    string
		n       int
		sweeps  int
		noise   float64
		lat, bw func(a, b, s int) float64
		want    []string // "node c03 bandwidth", "link c02 c05 latency"
	}{
		{"healthy", 16, 1, 0.05, flat(1.5), flat(12000), nil},
		{"healthy, three sweeps", 8, 3, 0.1, flat(1.5), flat(12000), nil},
		{"slow node", 16, 1, 0.05, flat(1.5), slowNode(12000, 6, 0.41), []string{"node c07 bandwidth"}},
		{"slow node's latency", 8, 1, 0.05, slowNode(1.5, 2, 3), flat(12000), []string{"node c03 latency"}},
		{"slow link", 16, 1, 0.05, flat(1.5), slowLink(12000, 1, 4, 0.3), []string{"link c02 c05 bandwidth"}},
		{"long link", 6, 1, 0.05, slowLink(1.5, 0, 3, 8), flat(12000), []string{"link c01 c04 latency"}},
		{"node and link", 6, 1, 0.05, slowLink(60, 0, 3, 8), slowNode(1500, 2, 0.02),
			[]string{"node c03 bandwidth", "link c01 c04 latency"}},
		{"two slow nodes of eight", 8, 1, 0.05, flat(1.5), both(slowNode(12000, 1, 0.4), slowNode(12000, 5, 0.4)),
			[]string{"node c02 bandwidth", "node c06 bandwidth"}},
		{"three nodes, a slow node", 3, 1, 0.02, flat(1.5), slowNode(12000, 2, 0.3), []string{"node c03 bandwidth"}},
		{"three nodes, a slow link", 3, 1, 0.02, flat(1.5), slowLink(12000, 0, 1, 0.3), []string{"link c01 c02 bandwidth"}},
		// 40% of the bandwidth lost: named when every sweep says so, not from one
		{"moderate, once", 8, 1, 0.02, flat(1.5), slowLink(12000, 2, 3, 0.6), nil},
		{"moderate, three sweeps", 8, 3, 0.02, flat(1.5), slowLink(12000, 2, 3, 0.6), []string{"link c03 c04 bandwidth"}},
		// slow in one sweep of three: a hiccup
		{"once in three sweeps", 8, 3, 0.02, flat(1.5), func(a, b, s int) float64 {
			if a == 2 && b == 3 && s == 1 {
				return 3000
			}
			return 12000
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(20) {
				f := FleetOf(fleetRun(c.n, c.sweeps, c.noise, rand.New(rand.NewPCG(seed, 7)), c.lat, c.bw), DefaultThresholds)
				if f == nil || len(f.Nodes) != c.n {
					t.Fatalf("seed %d: fleet %+v", seed, f)
				}
				var got []string
				for _, k := range f.Culprits {
					if k.Kind == "node" {
						got = append(got, "node "+k.Node+" "+k.Metric)
					} else {
						got = append(got, "link "+k.A+" "+k.B+" "+k.Metric)
					}
				}
				slices.Sort(got)
				want := slices.Clone(c.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d: culprits %q, want %q", seed, got, want)
				}
			}
		})
	}
}

// TestFleetWords: a culprit's evidence names the node, its share of the
// fleet's value, its partners and its NIC; a link names how both nodes
// do with the others.
func TestFleetWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	node := FleetOf(fleetRun(16, 1, 0, rng, func(int, int, int) float64 { return 1.5 }, func(a, b, _ int) float64 {
		if a == 6 || b == 6 {
			return 4920
		}
		return 12000
	}), DefaultThresholds)
	if len(node.Culprits) != 1 {
		t.Fatalf("culprits %+v", node.Culprits)
	}
	if w := node.Culprits[0].Words; w != "node c07: bandwidth 41% of the fleet's with all 15 partners (its median pair 4920 MB/s, the fleet's 12000 MB/s); its bytes went over mlx5_0" {
		t.Errorf("node: %q", w)
	}
	link := FleetOf(fleetRun(6, 1, 0, rng, func(a, b, _ int) float64 {
		if a == 0 && b == 3 {
			return 12
		}
		return 1.5
	}, func(int, int, int) float64 { return 12000 }), DefaultThresholds)
	if len(link.Culprits) != 1 {
		t.Fatalf("culprits %+v", link.Culprits)
	}
	if w := link.Culprits[0].Words; w != "link c01 - c04: latency 8.0× the fleet's (12.0 µs, the fleet's 1.50 µs); c01 at 1.00-1.00× with its other 4, c04 at 1.00-1.00× with its other 4" {
		t.Errorf("link: %q", w)
	}
	c01, c04 := slices.Index(link.Nodes, "c01"), slices.Index(link.Nodes, "c04")
	if link.Latency[c01][c04] != 12 || link.Latency[c04][c01] != 12 || link.Bandwidth[c01][c04] != 12000 || link.Latency[c01][c01] == link.Latency[c01][c01] {
		t.Errorf("matrices (%v): %v %v", link.Nodes, link.Latency, link.Bandwidth)
	}
}

// TestFleetExplain: explain says each culprit as a warning and the fleet
// in a line; a round in which every pair was slow together is said, its
// pairs not named; the generic rules leave the pairs alone.
func TestFleetExplain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	run := fleetRun(8, 1, 0.02, rng, func(int, int, int) float64 { return 1.5 }, func(a, b, _ int) float64 {
		for ri, round := range fleet.Tournament(8) {
			if ri == 2 && slices.Contains(round, [2]int{min(a, b), max(a, b)}) {
				return 2000 // every pair of round 3: something else loaded the fabric
			}
		}
		return 12000
	})
	fs := Explain(run, ExplainOptions{})
	var kinds []string
	for _, f := range fs {
		kinds = append(kinds, f.Kind)
	}
	if len(fs) != 1 || fs[0].Kind != KindFleet || !strings.Contains(fs[0].Summary, "in round 3 of sweep 1 every pair was slow together") ||
		!strings.Contains(fs[0].Summary, "no node or link stands out") {
		t.Errorf("findings %q: %+v", kinds, fs)
	}
	if FleetOf(&result.Bundle{Run: &result.Run{}, Results: []*result.Result{{Suite: "imb", Benchmark: "PingPong"}}}, DefaultThresholds) != nil {
		t.Error("a fleet of a run without pairs")
	}
}

// TestFleetCheck: check holds a sweep against an earlier one node by node
// (a node's value: its median pair, a point a sweep; a pair read as
// explain reads it, at the tenth percentile of its iterations): the node
// that got slower regresses over three sweeps, is unconfirmed from one,
// and no other node moves.
func TestFleetCheck(t *testing.T) {
	healthy := func(int, int, int) float64 { return 12000 }
	slow := func(a, b, _ int) float64 {
		if a == 2 || b == 2 {
			return 6000
		}
		return 12000
	}
	lat := func(int, int, int) float64 { return 1.5 }
	for _, c := range []struct {
		sweeps int
		want   string
	}{{3, VerdictRegression}, {1, VerdictUnconfirmed}} {
		rng := rand.New(rand.NewPCG(5, 6))
		base := fleetRun(8, c.sweeps, 0.02, rng, lat, healthy)
		run := fleetRun(8, c.sweeps, 0.02, rng, lat, slow)
		res, err := Check([]*result.Bundle{base}, []*result.Bundle{run}, CheckOptions{Tolerances: DefaultTolerances()})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 16 {
			t.Errorf("%d sweeps: %d rows, want 16 (two a node)", c.sweeps, len(res.Rows))
		}
		for _, r := range res.Rows {
			want := VerdictOK
			if r.Key.Benchmark == fleet.Bandwidth+" @ c03" {
				want = c.want
			}
			if r.Verdict != want || r.Key.Benchmark == fleet.Bandwidth+" @ c03" && r.Metric != PairBW {
				t.Errorf("%d sweeps: %s %s %s, want %s", c.sweeps, r.Key.Benchmark, r.Metric, r.Verdict, want)
			}
		}
	}
}

// TestFleetQuantile: a pair is read at the tenth percentile of its
// iterations: one whose median round trip waits out time slices (a busy
// core) while its fastest tenth is the fleet's is not named; one whose
// every round trip is slow (a long link) is.
func TestFleetQuantile(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	run := fleetRun(6, 1, 0.02, rng, func(int, int, int) float64 { return 50 }, func(int, int, int) float64 { return 12000 })
	samples := func(fast, slow float64) []float64 {
		var s []float64
		for i := range 100 {
			if i < 20 {
				s = append(s, fast)
			} else {
				s = append(s, slow)
			}
		}
		return s
	}
	for _, r := range run.Results {
		if r.Benchmark != fleet.Latency {
			continue
		}
		switch r.Pair.Hosts {
		case [2]string{"c01", "c02"}: // starved: the median 2 ms, a fifth of them 50 µs
			r.SamplesUS, r.P50US = [][]float64{samples(50, 2000)}, 2000
		case [2]string{"c03", "c04"}, [2]string{"c04", "c03"}: // long: every round trip
			r.SamplesUS, r.P50US = [][]float64{samples(1000, 1100)}, 1100
		default:
			r.SamplesUS = [][]float64{samples(50, 52)}
		}
	}
	f := FleetOf(run, DefaultThresholds)
	if len(f.Culprits) != 1 || f.Culprits[0].Kind != "link" || f.Culprits[0].A+f.Culprits[0].B != "c03c04" && f.Culprits[0].A+f.Culprits[0].B != "c04c03" {
		t.Errorf("culprits %+v", f.Culprits)
	}
}

// crossRun makes a -per-node cross sweep's records over ranks on hosts
// (hosts[r] is rank r's), as fleet.Plan schedules it: every rank with
// every rank of every other host; lat and bw give a pair's values from
// its endpoints' names (host#k).
func crossRun(hosts []string, lat, bw func(a, b string) float64) *result.Bundle {
	b := &result.Bundle{Run: &result.Run{Suite: fleet.Suite}}
	opt := fleet.DefaultOptions()
	opt.PerNode = fleet.PerNodeCross
	nodes := fleet.Nodes(hosts)
	plan, err := fleet.Plan(nodes, opt)
	if err != nil {
		panic(err)
	}
	for ri, round := range plan {
		for _, p := range round {
			pair := &result.Pair{Ranks: [2]int{p.A, p.B}, Hosts: [2]string{hosts[p.A], hosts[p.B]}, Local: [2]int{p.RankA, p.RankB}, Round: ri, Concurrent: len(round)}
			a, c := fleet.NodeOf(pair, 0, true), fleet.NodeOf(pair, 1, true)
			l, w := lat(a, c), bw(a, c)
			b.Results = append(b.Results,
				&result.Result{Suite: fleet.Suite, Benchmark: fleet.Latency, NP: 2, Status: result.StatusOK, P50US: l, TAvgUS: l, Pair: pair},
				&result.Result{Suite: fleet.Suite, Benchmark: fleet.Bandwidth, NP: 2, Status: result.StatusOK, MBps: w, Pair: pair})
		}
	}
	return b
}

// TestFleetCrossUneven: -per-node cross over a host of two ranks and two
// of one (a NIC a rank), the single ones' link ten times slower: the
// typical pair is a number and the link is named. The better half of the
// endpoints (ranked by their median pair) are then the two NICs of the
// first host, which never pair: the typical latency was NaN, and nothing
// was named.
func TestFleetCrossUneven(t *testing.T) {
	hosts := []string{"h1", "h1", "h2", "h3"}
	pairs := map[string]float64{"h1#0h2#0": 0.95, "h1#1h2#0": 1.05, "h1#0h3#0": 1.05, "h1#1h3#0": 0.95}
	for _, c := range []struct {
		metric string
		lat    func(a, b string) float64
		bw     func(a, b string) float64
	}{
		{"latency", func(a, b string) float64 {
			if x, ok := pairs[a+b]; ok {
				return 2 * x
			}
			return 20
		}, func(a, b string) float64 { return 12000 }},
		{"bandwidth", func(a, b string) float64 { return 2 }, func(a, b string) float64 {
			if x, ok := pairs[a+b]; ok {
				return 12000 / x
			}
			return 1200
		}},
	} {
		f := FleetOf(crossRun(hosts, c.lat, c.bw), DefaultThresholds)
		if f == nil || math.IsNaN(f.TypicalLatency) || math.IsNaN(f.TypicalBandwidth) {
			t.Fatalf("%s: fleet %+v", c.metric, f)
		}
		if len(f.Culprits) != 1 || f.Culprits[0].Kind != "link" || f.Culprits[0].Metric != c.metric || f.Culprits[0].A+f.Culprits[0].B != "h2#0h3#0" {
			t.Errorf("%s: culprits %+v", c.metric, f.Culprits)
		}
	}
}
