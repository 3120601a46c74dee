package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// p2pRun: PingPong, PingPing, Sendrecv and Exchange of one run on a
// shared-memory-like curve (PingPing, Sendrecv 1.3× PingPong's time,
// Exchange 2.6×: its two sends), each scaled by its own factor by size.
func p2pRun(f map[string]func(int64) float64) *result.Bundle {
	run := &result.Bundle{Run: &result.Run{Suite: "imb", RunID: "p2p", WorldSize: 2}}
	for _, c := range []struct {
		name string
		k    float64
	}{{"PingPong", 1}, {"PingPing", 1.3}, {"Sendrecv", 1.3}, {"Exchange", 2.6}} {
		g := f[c.name]
		if g == nil {
			g = one
		}
		k := c.k
		run.Results = append(run.Results, mkRun("imb", c.name, 2, result.IntraNode,
			pingpong(0.4*k, 8000/k, func(b int64) float64 { return g(b) }), nil).Results...)
	}
	return run
}

func from(b int64, k float64) func(int64) float64 {
	return func(s int64) float64 {
		if s >= b {
			return k
		}
		return 1
	}
}

// TestSiblings: a step one benchmark takes alone is a cliff of that
// benchmark, not the MPI's protocol switch, and names the siblings'
// numbers; a step all take is the switch; a benchmark far below its
// siblings at its largest sizes is a WARNING.
func TestSiblings(t *testing.T) {
	for _, c := range []struct {
		name     string
		f        map[string]func(int64) float64
		want     string // severity:kind:benchmark among the findings
		says     string // in that finding's summary or numbers
		noSwitch bool   // no "shows in 1 benchmark(s)" switch finding
	}{
		{"PingPong steps alone at 64 KiB", map[string]func(int64) float64{"PingPong": from(64<<10, 3)},
			"warning:cliff:PingPong", "against PingPing from 64 KiB on", true},
		{"PingPing steps alone at 64 KiB", map[string]func(int64) float64{"PingPing": from(64<<10, 3)},
			"warning:cliff:PingPing", "do not share", true},
		{"all four step at 16 KiB: the switch", map[string]func(int64) float64{"PingPong": from(16<<10, 3), "PingPing": from(16<<10, 3),
			"Sendrecv": from(16<<10, 3), "Exchange": from(16<<10, 3)}, "info:protocol-switch:", "shows in 4 benchmark(s)", false},
		{"PingPong far below from 1 MiB, the caches' step", map[string]func(int64) float64{"PingPong": from(1<<20, 4)},
			"warning:siblings:PingPong", "less than 50% of the rate of", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := Explain(p2pRun(c.f), ExplainOptions{})
			var got []string
			ok := false
			for _, f := range fs {
				k := f.Severity + ":" + f.Kind + ":" + f.Series.Benchmark
				got = append(got, k)
				if k == c.want && strings.Contains(f.Summary+strings.Join(f.Numbers, "|"), c.says) {
					ok = true
				}
				if c.noSwitch && f.Kind == KindSwitch && strings.Contains(f.Summary, "shows in 1 benchmark(s)") {
					t.Errorf("a lone step read as the MPI's switch: %s", f.Summary)
				}
			}
			if !ok {
				t.Errorf("no %s saying %q among %v", c.want, c.says, got)
			}
		})
	}
	// healthy: no sibling finding
	for _, f := range Explain(p2pRun(nil), ExplainOptions{}) {
		if f.Severity == Warning {
			t.Errorf("healthy siblings: %s %s", f.Kind, f.Summary)
		}
	}
}

// TestOneSizeWording: what a single size means. A spread at one size
// of a collective that is not rooted is a hiccup, not the rooted
// reading, where the slowest rank is little behind; on one node, 3 µs or
// more behind, it is the seed's red flag (a WARNING); a step at the
// largest size is unconfirmed, not a spike the larger sizes fall back
// from.
func TestOneSizeWording(t *testing.T) {
	for _, c := range []struct {
		k   float64
		sev string
	}{{12, Warning}, {3.2, Info}} {
		ar := mkRun("imb", "Allreduce", 4, result.IntraNode, pingpong(0.3, 4000, one), func(x *result.Result) {
			if x.Bytes == 4096 {
				x.TMaxUS = c.k * x.TMinUS // 1.32 µs at t_min: 14.5 µs behind, or 2.9
			}
		})
		f := find(Explain(ar, ExplainOptions{}), KindVariability)
		word := "one size only"
		if c.sev == Warning {
			word = "at one size, but the ranks share a node"
		}
		if f == nil || f.Severity != c.sev || strings.Contains(f.Cause, "rooted") || !strings.Contains(f.Cause, word) {
			t.Errorf("Allreduce spread of %gx at one size: %+v", c.k, f)
		}
	}
	// between nodes (on one node a step there is read as the caches')
	sr := mkRun("imb", "Sendrecv", 2, result.InterNode, pingpong(1, 5000, func(s int64) float64 {
		if s == 4<<20 {
			return 4
		}
		return 1
	}), nil)
	f := find(Explain(sr, ExplainOptions{}), KindVariability)
	if f == nil || f.Severity != Info || !strings.Contains(f.Summary, "largest size, 4 MiB") || strings.Contains(f.Summary+strings.Join(f.Numbers, ""), "fall back") {
		t.Errorf("step at the largest size: %+v", f)
	}
}
