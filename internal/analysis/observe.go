package analysis

import (
	"math"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Key names one measured point: a benchmark at a process count and size.
// Benchmark is the record's Name: a benchmark of two run modes (IMB-EXT's
// aggregate and non-aggregate) is two curves, "Unidir_Put (aggregate)".
type Key struct {
	Suite     string `json:"suite"`
	Benchmark string `json:"benchmark"`
	NP        int    `json:"np"`
	Bytes     int64  `json:"bytes"`
}

// Less orders keys by suite, benchmark, np and size.
func (k Key) Less(o Key) bool {
	if k.Suite != o.Suite {
		return k.Suite < o.Suite
	}
	if k.Benchmark != o.Benchmark {
		return k.Benchmark < o.Benchmark
	}
	if k.NP != o.NP {
		return k.NP < o.NP
	}
	return k.Bytes < o.Bytes
}

// Series is a benchmark at a process count: the unit of the band table
// and of most findings.
type Series struct {
	Suite     string `json:"suite"`
	Benchmark string `json:"benchmark"`
	NP        int    `json:"np"`
}

// Series of the key.
func (k Key) Series() Series { return Series{k.Suite, k.Benchmark, k.NP} }

// Point is one run's value at a key.
type Point struct {
	Run   int     `json:"run"` // index of the run in its side
	Value float64 `json:"value"`
}

// Observe gives every key's values, one per run — each launch is one
// observation. Within a run, the -multi groups and the ring's samples
// (the cold one aside) of a key are summarised by their median; failed
// rows and values of 0 (IMB's 0-byte bandwidth, times printed as 0.00)
// are left out. metric "" takes each benchmark's primary metric.
func Observe(runs []*result.Bundle, metric Metric) map[Key][]Point {
	return observe(runs, metric, Link{})
}

// observe is Observe with the link that link_efficiency is taken against
// (zero: each run's own, RunLink).
func observe(runs []*result.Bundle, metric Metric, link Link) map[Key][]Point {
	out := map[Key][]Point{}
	for i, r := range runs {
		l := link
		if l.Gbps == 0 {
			l = RunLink(r.Run)
		}
		vals := map[Key][]float64{}
		nodes := map[Key]map[int][]float64{} // a fleet sweep's: by node key, by sweep
		local := false
		for _, x := range r.Results {
			local = local || x.Pair != nil && x.Pair.Local != [2]int{}
		}
		for _, x := range r.Results {
			if x.Status != result.StatusOK || x.Cold {
				continue
			}
			k := Key{x.Suite, x.Name(), x.NP, x.Bytes}
			if x.Congestion != nil { // a canary alone and congested are two measurements, a point a trial each
				k.Benchmark += " (" + x.Congestion.Phase + ")"
			}
			m := metric
			if m == "" {
				m = Primary(x.Suite, x.Benchmark)
				if x.Pair != nil {
					m = pairMetric(x.Benchmark)
				}
			}
			v := m.Value(x)
			if m == Efficiency {
				v = efficiencyOf(x, l)
			}
			switch {
			case math.IsNaN(v):
			case x.Pair != nil:
				// a fleet sweep's pair counts for both its nodes: a node's
				// value is its median pair, one point a sweep
				for side := range 2 {
					nk := k
					nk.Benchmark += " @ " + fleet.NodeOf(x.Pair, side, local)
					if nodes[nk] == nil {
						nodes[nk] = map[int][]float64{}
					}
					nodes[nk][x.Pair.Sweep] = append(nodes[nk][x.Pair.Sweep], v)
				}
			default:
				vals[k] = append(vals[k], v)
			}
		}
		for k, v := range vals {
			out[k] = append(out[k], Point{Run: i, Value: stats.Median(v)})
		}
		for k, sweeps := range nodes {
			for s := range len(sweeps) + 1 {
				if v, ok := sweeps[s]; ok {
					out[k] = append(out[k], Point{Run: i, Value: stats.Median(v)})
				}
			}
		}
	}
	return out
}

// observePair observes two sides for comparison. With metric "" each key
// takes its benchmark's primary metric, or TTrim where that is a time and
// every run of both sides has samples there (so that one slow repetition
// does not move a launch's value); used says which.
func observePair(a, b []*result.Bundle, metric Metric, la, lb Link) (oa, ob map[Key][]Point, used map[Key]Metric) {
	oa, ob = observe(a, metric, la), observe(b, metric, lb)
	used = map[Key]Metric{}
	for k := range oa {
		used[k] = MetricOf(k, metric)
	}
	if metric != "" {
		return oa, ob, used
	}
	ta, tb := observe(a, TTrim, la), observe(b, TTrim, lb)
	for k, ps := range oa {
		if m := used[k]; m != TAvg && m != TMax || len(ta[k]) != len(ps) || len(tb[k]) == 0 || len(tb[k]) != len(ob[k]) {
			continue
		}
		oa[k], ob[k], used[k] = ta[k], tb[k], TTrim
	}
	return oa, ob, used
}

// MetricOf is the metric a key is compared by.
func MetricOf(k Key, metric Metric) Metric {
	if metric != "" {
		return metric
	}
	if b, _, node := strings.Cut(k.Benchmark, " @ "); node && k.Suite == fleet.Suite {
		return pairMetric(b)
	}
	return Primary(k.Suite, k.Benchmark)
}

// pairMetric is how a fleet's pair of benchmark b is read: as explain
// reads it.
func pairMetric(b string) Metric {
	if b == fleet.Latency {
		return PairTime
	}
	return PairBW
}

// Keys returns the map's keys in order.
func Keys[V any](m map[Key]V) []Key {
	keys := make([]Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys
}

// Locality of a set of runs: "intra-node", "inter-node", "mixed", or ""
// when no result says.
func Locality(runs []*result.Bundle) string {
	var all []*result.Result
	for _, r := range runs {
		all = append(all, r.Results...)
	}
	return result.CommonLocality(all)
}

func values(ps []Point) []float64 {
	v := make([]float64, len(ps))
	for i, p := range ps {
		v[i] = p.Value
	}
	return v
}
