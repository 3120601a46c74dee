package suite

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/result"
)

// Tree is a switch tree, as Slurm's topology/tree plugin describes it
// (topology.conf, or what `scontrol show topology` prints): switches with
// nodes (leaves) or other switches below them.
type Tree struct {
	Source string
	parent map[string]string // switch -> the switch above it
	leaf   map[string]string // node -> the lowest switch that lists it
	order  []string          // switches, as listed
}

// ParseTree reads topology.conf lines or `scontrol show topology`'s:
// "SwitchName=s1 [Level=0 LinkSpeed=1] Nodes=nid[001-032]" and
// "SwitchName=spine Switches=s[1-4]"; '#' starts a comment. source names
// it in errors.
func ParseTree(r io.Reader, source string) (*Tree, error) {
	t := &Tree{Source: source, parent: map[string]string{}, leaf: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	n := 0
	for sc.Scan() {
		n++
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		var name, nodes, switches string
		for _, kv := range strings.Fields(line) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				continue
			}
			switch strings.ToLower(k) {
			case "switchname":
				name = v
			case "nodes":
				nodes = v
			case "switches":
				switches = v
			}
		}
		if name == "" {
			if strings.Contains(strings.ToLower(line), "switchname") {
				return nil, fmt.Errorf("%s:%d: a switch line without a name", source, n)
			}
			continue // another kind of line (Slurm's messages): not a switch
		}
		t.order = append(t.order, name)
		if nodes != "" {
			hs, err := result.ExpandHostlist(nodes)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: Nodes: %v", source, n, err)
			}
			for _, h := range hs {
				if _, ok := t.leaf[h]; !ok {
					t.leaf[h] = name
				}
			}
		}
		if switches != "" {
			ss, err := result.ExpandHostlist(switches)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: Switches: %v", source, n, err)
			}
			for _, s := range ss {
				t.parent[s] = name
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	if len(t.order) == 0 {
		return nil, nil // no switches: no tree (Slurm without the tree plugin)
	}
	for s, p := range t.parent {
		for seen, q := 0, p; q != ""; q = t.parent[q] {
			if q == s || seen > len(t.order) {
				return nil, fmt.Errorf("%s: switch %s is above itself", source, s)
			}
			seen++
		}
	}
	return t, nil
}

// ReadTree reads a topology file (topology.conf or saved scontrol output).
func ReadTree(path string) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ParseTree(f, path)
	if err == nil && t == nil {
		err = fmt.Errorf("%s: no switch in it (SwitchName=... Nodes=... lines)", path)
	}
	return t, err
}

// Leaf is the switch a node hangs off ("" when the tree does not list it).
func (t *Tree) Leaf(node string) string { return t.leaf[node] }

// Switches is how many switches the path between two nodes' leaf
// switches crosses: 1 under one leaf, 3 for leaf-spine-leaf; -1 when the
// leaves share no switch above them.
func (t *Tree) Switches(leafA, leafB string) int {
	if leafA == leafB {
		return 1
	}
	up := map[string]int{}
	for d, s := 0, leafA; s != ""; d, s = d+1, t.parent[s] {
		up[s] = d
	}
	for d, s := 0, leafB; s != ""; d, s = d+1, t.parent[s] {
		if da, ok := up[s]; ok {
			return da + d + 1
		}
	}
	return -1
}

// pair is two nodes (indices into the allocation's nodes) and what the
// path between them costs.
type pair struct {
	a, b int
	cost float64
	note string
}

// treePair picks, among nodes, the pair with the fewest (shortest) or
// most (longest) switches between them, the first in node order among
// equals. It works on the leaves, not on the pairs of nodes, so that ten
// thousand nodes plan at once.
func (t *Tree) pair(nodes []string, p Path) (pair, error) {
	type leafNodes struct {
		name  string
		nodes []int
	}
	var leaves []*leafNodes
	at := map[string]*leafNodes{}
	for i, n := range nodes {
		l := t.leaf[n]
		if l == "" {
			return pair{}, fmt.Errorf("node %s is under no switch of the topology (%s)", n, t.Source)
		}
		if at[l] == nil {
			at[l] = &leafNodes{name: l}
			leaves = append(leaves, at[l])
		}
		at[l].nodes = append(at[l].nodes, i)
	}
	best := pair{a: -1, cost: math.NaN()}
	better := func(c float64) bool {
		if math.IsNaN(best.cost) {
			return true
		}
		if p == PathShortest {
			return c < best.cost
		}
		return c > best.cost
	}
	for _, l := range leaves {
		if len(l.nodes) >= 2 && better(1) {
			best = pair{a: l.nodes[0], b: l.nodes[1], cost: 1}
			if p == PathShortest {
				break // one switch: nothing is shorter
			}
		}
	}
	if p == PathLongest || best.a < 0 {
		for i, la := range leaves {
			for _, lb := range leaves[i+1:] {
				c := t.Switches(la.name, lb.name)
				if c < 0 {
					return pair{}, fmt.Errorf("switches %s and %s share no switch above them (%s)", la.name, lb.name, t.Source)
				}
				if better(float64(c)) {
					best = pair{a: la.nodes[0], b: lb.nodes[0], cost: float64(c)}
				}
			}
		}
	}
	if best.a < 0 {
		return pair{}, fmt.Errorf("fewer than two nodes")
	}
	best.note = fmt.Sprintf("%d switch", int(best.cost))
	if best.cost != 1 {
		best.note += "es"
	}
	best.note += " between them (" + t.Source + ")"
	return best, nil
}

// Fleet is the pair latencies of a fleet sweep (gomb fleet's records):
// the path of a pair is its latency.
type Fleet struct {
	Source string
	nodes  []string
	at     map[string]int
	lat    [][]float64 // µs, NaN where the sweep has no pair
}

// ReadFleet reads gomb fleet's records (every run in the file; the last
// fleet run is used).
func ReadFleet(path string) (*Fleet, error) {
	bundles, err := readBundles(path)
	if err != nil {
		return nil, err
	}
	var fl *Fleet
	for _, b := range bundles {
		f := analysis.FleetOf(b, analysis.DefaultThresholds)
		if f == nil || len(f.Nodes) < 2 {
			continue
		}
		fl = &Fleet{Source: path, nodes: f.Nodes, at: map[string]int{}, lat: f.Latency}
		for i, n := range f.Nodes {
			fl.at[n] = i
		}
	}
	if fl == nil {
		return nil, fmt.Errorf("%s: no gomb fleet sweep in it (gomb fleet -json FILE)", path)
	}
	return fl, nil
}

// NewFleet is a Fleet from a latency matrix (µs, symmetric, NaN for no
// pair) over nodes.
func NewFleet(source string, nodes []string, lat [][]float64) *Fleet {
	f := &Fleet{Source: source, nodes: nodes, at: map[string]int{}, lat: lat}
	for i, n := range nodes {
		f.at[n] = i
	}
	return f
}

// pair picks, among nodes, the pair with the lowest (shortest) or
// highest (longest) latency in the sweep.
func (f *Fleet) pair(nodes []string, p Path) (pair, error) {
	idx := make([]int, len(nodes))
	for i, n := range nodes {
		j, ok := f.at[n]
		if !ok {
			idx[i] = -1
			continue
		}
		idx[i] = j
	}
	best := pair{a: -1, cost: math.NaN()}
	for i := range nodes {
		if idx[i] < 0 {
			continue
		}
		for k := i + 1; k < len(nodes); k++ {
			if idx[k] < 0 {
				continue
			}
			v := f.lat[idx[i]][idx[k]]
			if math.IsNaN(v) {
				continue
			}
			if math.IsNaN(best.cost) || p == PathShortest && v < best.cost || p == PathLongest && v > best.cost {
				best = pair{a: i, b: k, cost: v}
			}
		}
	}
	if best.a < 0 {
		return pair{}, fmt.Errorf("the sweep in %s measured no pair of this allocation's nodes", f.Source)
	}
	best.note = fmt.Sprintf("%.1f us pair latency in %s", best.cost, f.Source)
	return best, nil
}
