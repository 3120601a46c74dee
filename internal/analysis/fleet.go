package analysis

// A fleet sweep's verdict (gomb fleet): which node is slow with its
// partners, which link between two healthy nodes is slow.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Fleet is a sweep's pairs as node x node matrices, and what stands out.
type Fleet struct {
	// Nodes are the endpoints: hosts, or host#k where several ranks of a
	// host took part (a NIC each).
	Nodes []string `json:"nodes"`
	// Latency (µs, half a round trip) and Bandwidth (MB/s) of each pair,
	// read at FleetQuantile of its iterations (pairValue), the median over
	// sweeps; NaN where the pair was not measured (the diagonal).
	// Symmetric.
	Latency   [][]float64 `json:"latency_us"`
	Bandwidth [][]float64 `json:"bandwidth_mbps"`
	// Typical are the healthy pairs' medians: latency µs, bandwidth MB/s.
	TypicalLatency   float64   `json:"typical_latency_us"`
	TypicalBandwidth float64   `json:"typical_bandwidth_mbps"`
	Culprits         []Culprit `json:"culprits"`
	// NICs name the interface that carried each node's bandwidth bytes
	// (the busiest non-loopback one over its pairs; "" unknown).
	NICs []string `json:"nics"`
	// Transient are rounds whose pairs were slow together: something else
	// loaded the fabric or the hosts then (their links are not named).
	Transient []string `json:"transient,omitempty"`
	pairs     int
	meas      []measurement
}

// measurement is one pair's values in one round of one sweep.
type measurement struct {
	i, j, round, sweep int
	lat, bw            float64
}

// value is the measurement's bandwidth (higher: the larger the better) or
// latency.
func (m measurement) value(higher bool) float64 {
	if higher {
		return m.bw
	}
	return m.lat
}

// is reports whether the measurement is of nodes i and j.
func (m measurement) is(i, j int) bool { return m.i == i && m.j == j || m.i == j && m.j == i }

// Culprit is a node slow with most of its partners, or a link slow
// between two nodes that are fine with others.
type Culprit struct {
	Kind   string `json:"kind"` // "node" or "link"
	Node   string `json:"node,omitempty"`
	A      string `json:"a,omitempty"`
	B      string `json:"b,omitempty"`
	Metric string `json:"metric"` // "latency" or "bandwidth"
	// Ratio is the culprit's value over the typical pair's (the median
	// over its pairs, for a node): 0.41 is 41% of the fleet's bandwidth,
	// 3.2 three times its latency.
	Ratio float64 `json:"ratio"`
	// Bad and Partners: of the node's partners, how many saw it slow.
	Bad      int    `json:"bad,omitempty"`
	Partners int    `json:"partners,omitempty"`
	Words    string `json:"words"`
}

// The finding kinds of a fleet sweep.
const (
	KindFleetNode = "fleet-node"
	KindFleetLink = "fleet-link"
	KindFleet     = "fleet"
)

// FleetOf gathers a run's fleet rows (nil: the run has none) and judges
// them: a pair is slow when its value is FleetMinRatio worse than the
// typical pair's and FleetK robust deviations beyond it; a node is the
// culprit when at least FleetNodeShare of its partners (two at least)
// saw it slow, a link when its pair is slow and neither node is, or it
// is slow beyond its nodes' own slowness.
func FleetOf(b *result.Bundle, th Thresholds) *Fleet {
	f := &Fleet{}
	nics := f.gather(b)
	if len(f.Nodes) < 2 {
		return nil
	}
	n := len(f.Nodes)
	f.Latency, f.Bandwidth, f.NICs = f.cells(false), f.cells(true), make([]string, n)
	for i, nd := range f.Nodes {
		var best int64
		for name, bytes := range nics[nd] {
			if bytes > best || bytes == best && name < f.NICs[i] {
				f.NICs[i], best = name, bytes
			}
		}
	}
	var lc, bc []Culprit
	f.TypicalLatency, lc = f.judge(f.Latency, false, th, "latency")
	f.TypicalBandwidth, bc = f.judge(f.Bandwidth, true, th, "bandwidth")
	f.Culprits = append(bc, lc...)
	for i := range f.Culprits {
		f.Culprits[i].Words = f.words(f.Culprits[i])
	}
	return f
}

// gather reads the run's fleet rows into f's nodes and measurements, in
// order (sweep, round, pair), and returns the bytes each node's
// interfaces carried over its bandwidth loops (loopback left out).
func (f *Fleet) gather(b *result.Bundle) map[string]map[string]int64 {
	type when struct {
		a, b         string
		round, sweep int
	}
	seen := map[when]*measurement{}
	nics := map[string]map[string]int64{}
	multi := slices.ContainsFunc(b.Results, func(r *result.Result) bool { return r.Pair != nil && r.Pair.Local != [2]int{} })
	at := map[string]int{}
	node := func(p *result.Pair, side int) string {
		n := fleet.NodeOf(p, side, multi)
		if _, ok := at[n]; !ok {
			at[n] = len(f.Nodes)
			f.Nodes = append(f.Nodes, n)
		}
		return n
	}
	for _, r := range b.Results {
		if r.Pair == nil || r.Suite != fleet.Suite || r.Status != result.StatusOK {
			continue
		}
		a, c := node(r.Pair, 0), node(r.Pair, 1)
		w := when{a, c, r.Pair.Round, r.Pair.Sweep}
		if seen[w] == nil {
			seen[w] = &measurement{i: at[a], j: at[c], round: r.Pair.Round, sweep: r.Pair.Sweep, lat: math.NaN(), bw: math.NaN()}
		}
		switch v := pairValue(r); r.Benchmark {
		case fleet.Latency:
			seen[w].lat = v
		case fleet.Bandwidth:
			seen[w].bw = v
			for i, n := range []string{a, c} {
				for _, t := range r.NIC {
					if t.Host == r.Pair.Hosts[i] && t.Kind != "loopback" {
						if nics[n] == nil {
							nics[n] = map[string]int64{}
						}
						nics[n][t.Name] += t.TxBytes + t.RxBytes
					}
				}
			}
		}
	}
	for _, m := range seen {
		f.meas = append(f.meas, *m)
	}
	sort.Slice(f.meas, func(x, y int) bool {
		a, b := f.meas[x], f.meas[y]
		return a.sweep < b.sweep || a.sweep == b.sweep && (a.round < b.round || a.round == b.round && (a.i < b.i || a.i == b.i && a.j < b.j))
	})
	return nics
}

// cells is the node x node matrix of latency or bandwidth (higher): each
// pair's median over its measurements (sweeps), NaN where none.
func (f *Fleet) cells(higher bool) [][]float64 {
	n := len(f.Nodes)
	m := matrix(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			var v []float64
			for _, me := range f.meas {
				if w := me.value(higher); me.is(i, j) && !math.IsNaN(w) {
					v = append(v, w)
				}
			}
			if len(v) > 0 {
				m[i][j], m[j][i] = stats.Median(v), stats.Median(v)
				if higher {
					f.pairs++
				}
			}
		}
	}
	return m
}

// FleetQuantile is the share of a pair's iterations its value is read
// at: a fault of the node or the link slows every round trip and window,
// while a busy core, a scheduler or a neighbour's burst slows some of
// them (on the emulated hosts with a core kept busy, a pair's median
// round trip was 20x the typical in every sweep, its tenth percentile
// was not).
const FleetQuantile = 0.1

// pairValue is a fleet row's value: latency, µs, the FleetQuantile of its
// round trips (the median where the row kept no samples); bandwidth, MB/s,
// at the FleetQuantile of its window times.
func pairValue(r *result.Result) float64 {
	if len(r.SamplesUS) == 0 || len(r.SamplesUS[0]) == 0 {
		if r.Benchmark == fleet.Latency {
			return r.P50US
		}
		return r.MBps
	}
	q := stats.Quantile(stats.Sorted(r.SamplesUS[0]), FleetQuantile)
	if r.Benchmark == fleet.Latency {
		return q
	}
	if !(q > 0) {
		return r.MBps
	}
	return r.MBps * r.TAvgUS / q // the windows' bytes over the quantile's time
}

func matrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = math.NaN()
		}
	}
	return m
}

// judging is one matrix under judgement (higher: bandwidth, the larger
// the better).
type judging struct {
	f       *Fleet
	m       [][]float64
	higher  bool
	nodeMed []float64 // each node's median pair (NaN: no pair)
	typ     float64   // the typical pair
	limit   float64   // how much worse (log) a slow pair is at least
	once    float64   // the same, for a pair measured once
}

// worse is how much worse than typ v is, on a log scale (positive: worse).
func (j *judging) worse(v, typ float64) float64 {
	if j.higher {
		return math.Log(typ / v)
	}
	return math.Log(v / typ)
}

// judge finds the slow nodes and links of one matrix (higher: bandwidth,
// the larger the better). It returns the typical pair's value: the median
// of the pairs among the better half of the nodes (ranked by their median
// pair), so that up to half the nodes can be slow without moving it.
func (f *Fleet) judge(m [][]float64, higher bool, th Thresholds, metric string) (float64, []Culprit) {
	j := &judging{f: f, m: m, higher: higher, nodeMed: make([]float64, len(f.Nodes))}
	for i := range f.Nodes {
		var v []float64
		for k := range f.Nodes {
			if !math.IsNaN(m[i][k]) {
				v = append(v, m[i][k])
			}
		}
		j.nodeMed[i] = math.NaN()
		if len(v) > 0 {
			j.nodeMed[i] = stats.Median(v)
		}
	}
	core := j.core()
	if len(core) == 0 {
		return math.NaN(), nil
	}
	j.typ = stats.Median(core)
	// the noise: the spread of the better half's pairs about the typical
	// one, where there are three at least (fewer say nothing of it)
	noise := 0.0
	if len(core) >= 3 {
		var dev []float64
		for _, v := range core {
			dev = append(dev, math.Abs(j.worse(v, j.typ)))
		}
		noise = 1.4826 * stats.Median(dev)
	}
	j.limit = math.Max(th.FleetK*noise, math.Log(1+th.FleetMinRatio))
	j.once = math.Log(1 + th.FleetOnceRatio)
	nodes := j.nodeCulprits(th, metric)
	return j.typ, append(nodes, j.linkCulprits(nodes, metric)...)
}

// core is the pairs among the better half of the nodes (ranked by their
// median pair): the typical pair's. Where those nodes never paired (the
// NICs of one host, under -per-node cross with uneven ranks a host), the
// next best nodes join them until a pair does.
func (j *judging) core() []float64 {
	var order []int
	for i := range j.f.Nodes {
		if !math.IsNaN(j.nodeMed[i]) {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return j.worse(j.nodeMed[order[a]], 1) < j.worse(j.nodeMed[order[b]], 1) })
	var core []float64
	for k := max(2, (len(order)+1)/2); len(core) == 0 && k <= len(order); k++ {
		better := order[:k]
		for x, a := range better {
			for _, b := range better[x+1:] {
				if !math.IsNaN(j.m[a][b]) {
					core = append(core, j.m[a][b])
				}
			}
		}
	}
	return core
}

// slow says whether pair (a, b) is slow: its median beyond the limit and
// every one of its measurements too (a scheduler's or a neighbour's
// hiccup is not repeated); measured once, beyond FleetOnceRatio as well.
func (j *judging) slow(a, b int) bool {
	if math.IsNaN(j.m[a][b]) || j.worse(j.m[a][b], j.typ) <= j.limit {
		return false
	}
	times := 0
	for _, x := range j.f.meas {
		if v := x.value(j.higher); x.is(a, b) && !math.IsNaN(v) {
			if j.worse(v, j.typ) <= j.limit {
				return false
			}
			times++
		}
	}
	return times > 1 || j.worse(j.m[a][b], j.typ) > j.once
}

// nodeCulprits are the nodes at least FleetNodeShare of whose partners
// (two at least) saw them slow.
func (j *judging) nodeCulprits(th Thresholds, metric string) []Culprit {
	var out []Culprit
	for i, nd := range j.f.Nodes {
		partners, bad := 0, 0
		for k := range j.f.Nodes {
			if k != i && !math.IsNaN(j.m[i][k]) {
				partners++
				if j.slow(i, k) {
					bad++
				}
			}
		}
		if bad >= 2 && float64(bad) >= th.FleetNodeShare*float64(partners) {
			out = append(out, Culprit{Kind: "node", Node: nd, Metric: metric, Ratio: j.nodeMed[i] / j.typ, Bad: bad, Partners: partners})
		}
	}
	return out
}

// linkCulprits are the slow pairs beyond what their slow nodes explain (a
// bandwidth the slower one's median pair, a latency both nodes' extra
// time added), unless they were slow together with their round
// (Transient).
func (j *judging) linkCulprits(nodes []Culprit, metric string) []Culprit {
	f, n := j.f, len(j.f.Nodes)
	culprit := make([]bool, n)
	for _, c := range nodes {
		culprit[slices.Index(f.Nodes, c.Node)] = true
	}
	var out []Culprit
	for a := range n {
		for b := a + 1; b < n; b++ {
			if !j.slow(a, b) {
				continue
			}
			expect := j.typ
			for _, k := range []int{a, b} {
				switch {
				case !culprit[k]:
				case j.higher:
					expect = math.Min(expect, j.nodeMed[k])
				default:
					expect += j.nodeMed[k] - j.typ
				}
			}
			if j.worse(j.m[a][b], expect) <= j.limit {
				continue
			}
			if rounds := f.together(a, b, j.higher, func(v float64) float64 { return j.worse(v, j.typ) }, j.limit); rounds != nil {
				for _, r := range rounds {
					if !slices.Contains(f.Transient, r) {
						f.Transient = append(f.Transient, r)
					}
				}
				continue
			}
			out = append(out, Culprit{Kind: "link", A: f.Nodes[a], B: f.Nodes[b], Metric: metric, Ratio: j.m[a][b] / j.typ})
		}
	}
	return out
}

// together names the rounds in which pair (i, j) was slow along with most
// of the other pairs of its round, and they about as slow (half as far
// from typical, on a log scale, at least), when that holds in every round
// it was slow in; nil when it was slow alone in one at least (or ran
// alone).
func (f *Fleet) together(i, j int, higher bool, worse func(float64) float64, limit float64) []string {
	slow := func(v float64) bool { return worse(v) > limit }
	val := func(m measurement) float64 { return m.value(higher) }
	var rounds []string
	for _, m := range f.meas {
		if !m.is(i, j) || !slow(val(m)) {
			continue
		}
		var others []float64
		bad := 0
		for _, o := range f.meas {
			if o.round == m.round && o.sweep == m.sweep && !o.is(i, j) && !math.IsNaN(val(o)) {
				others = append(others, worse(val(o)))
				if slow(val(o)) {
					bad++
				}
			}
		}
		if len(others) == 0 || 2*bad < len(others) || stats.Median(others) < worse(val(m))/2 {
			return nil
		}
		rounds = append(rounds, fmt.Sprintf("round %d of sweep %d", m.round+1, m.sweep+1))
	}
	return rounds
}

// words says a culprit with its evidence.
func (f *Fleet) words(c Culprit) string {
	m, typ, unit := f.Bandwidth, f.TypicalBandwidth, mbps
	if c.Metric == "latency" {
		m, typ, unit = f.Latency, f.TypicalLatency, us
	}
	rel := func(r float64) string {
		if c.Metric == "latency" {
			return fmt.Sprintf("%.1f× the fleet's", r)
		}
		return fmt.Sprintf("%.0f%% of the fleet's", 100*r)
	}
	at := map[string]int{}
	for i, nd := range f.Nodes {
		at[nd] = i
	}
	nic := func(nd string) string {
		if k := f.NICs[at[nd]]; k != "" {
			return fmt.Sprintf("; its bytes went over %s", k)
		}
		return ""
	}
	if c.Kind == "node" {
		with := fmt.Sprintf("all %d partners", c.Partners)
		if c.Bad < c.Partners {
			with = fmt.Sprintf("%d of its %d partners", c.Bad, c.Partners)
		}
		return fmt.Sprintf("node %s: %s %s with %s (its median pair %s, the fleet's %s)%s",
			c.Node, c.Metric, rel(c.Ratio), with, unit(c.Ratio*typ), unit(typ), nic(c.Node))
	}
	// a link: how its two nodes do with their other partners
	others := func(nd, not string) string {
		i := at[nd]
		lo, hi := math.Inf(1), math.Inf(-1)
		k := 0
		for j, o := range f.Nodes {
			if o == nd || o == not || math.IsNaN(m[i][j]) {
				continue
			}
			r := m[i][j] / typ
			lo, hi = math.Min(lo, r), math.Max(hi, r)
			k++
		}
		if k == 0 {
			return fmt.Sprintf("%s has no other partner", nd)
		}
		if c.Metric == "latency" {
			return fmt.Sprintf("%s at %.2f-%.2f× with its other %d", nd, lo, hi, k)
		}
		return fmt.Sprintf("%s at %.0f-%.0f%% with its other %d", nd, 100*lo, 100*hi, k)
	}
	return fmt.Sprintf("link %s - %s: %s %s (%s, the fleet's %s); %s, %s",
		c.A, c.B, c.Metric, rel(c.Ratio), unit(c.Ratio*typ), unit(typ), others(c.A, c.B), others(c.B, c.A))
}

// fleetFindings is explain's rule for a fleet sweep: each culprit a
// warning, and a line on the whole fleet.
func fleetFindings(in *explainInput) []Finding {
	f := FleetOf(in.run, in.th)
	if f == nil {
		return nil
	}
	se := Series{Suite: fleet.Suite, Benchmark: "pairs"}
	var out []Finding
	for _, c := range f.Culprits {
		kind, cause := KindFleetNode, "a node slow with most partners: its NIC, cable or switch port, its PCIe link, its firmware or settings (MTU, link speed), or its load; compare its NIC counters and link state with a healthy node's"
		if c.Kind == "link" {
			kind, cause = KindFleetLink, "two nodes fine with others but slow together: the path between them (a cable, a switch port or an inter-switch link on their route, or a routing table)"
		}
		out = append(out, Finding{Kind: kind, Severity: Warning, Series: se, Summary: c.Words, Cause: cause,
			Numbers: []string{fmt.Sprintf("ratio %.3g", c.Ratio)}})
	}
	sum := fmt.Sprintf("fleet of %d nodes, %d pairs: typical latency %s, bandwidth %s", len(f.Nodes), f.pairs,
		us(f.TypicalLatency), mbps(f.TypicalBandwidth))
	if len(f.Transient) > 0 {
		sum += fmt.Sprintf("; in %s every pair was slow together (not named: something else loaded the fabric or the hosts then; -sweeps 3 takes each pair's median)",
			strings.Join(f.Transient, ", "))
	}
	if len(f.Culprits) == 0 {
		sum += "; no node or link stands out"
	} else {
		sum += fmt.Sprintf("; %d stand out (%s)", len(f.Culprits), strings.Join(culpritNames(f.Culprits), ", "))
	}
	out = append(out, Finding{Kind: KindFleet, Severity: Info, Series: se, Summary: sum,
		Numbers: []string{fmt.Sprintf("a pair is slow %.3g× worse than typical and %g robust deviations beyond, in every sweep (measured once: %.3g×)",
			1+in.th.FleetMinRatio, in.th.FleetK, 1+in.th.FleetOnceRatio)},
		Cause: "each pair's median over the sweeps against the typical pair's (the median among the better half of the nodes); gomb report draws the matrices"})
	return out
}

func culpritNames(cs []Culprit) []string {
	var out []string
	for _, c := range cs {
		if c.Kind == "node" {
			out = append(out, c.Metric+" of node "+c.Node)
		} else {
			out = append(out, c.Metric+" of link "+c.A+" - "+c.B)
		}
	}
	return out
}
