package congestion

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
)

// Group is a congestor: its pattern's name and its nodes (indices into
// Layout.Nodes), the first the incast's target and the one-sided root.
type Group struct {
	Pattern string
	Nodes   []int
}

// Layout is which node does what: the canaries, the congestors' groups,
// and the congestors left out for want of nodes. One rank a node takes
// part (its first); the others wait.
type Layout struct {
	Nodes    []fleet.Node
	Canaries []int
	Groups   []Group
	Dropped  []string
}

// MinNodes is the fewest nodes gomb congestion runs on: two canaries and
// one congestor of two nodes.
const MinNodes = 4

// Plan lays the nodes out as opt asks (GPCNeT: the nodes shuffled, a
// fifth of them canaries, at least two, the rest dealt to the congestors
// in turn). A congestor needs two nodes: with fewer congestor nodes than
// twice the congestors, the last congestors are dropped.
func Plan(nodes []fleet.Node, opt Options) (Layout, error) {
	l := Layout{Nodes: nodes}
	n := len(nodes)
	if n < MinNodes {
		return l, fmt.Errorf("gomb congestion needs at least %d nodes (2 canaries, 2 congestors), got %d", MinNodes, n)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if opt.Seed != 0 {
		r := rand.New(rand.NewPCG(uint64(opt.Seed), 0x9e3779b97f4a7c15))
		r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	var rest []int
	if len(opt.Canaries) > 0 {
		at := map[string]int{}
		for i, nd := range nodes {
			at[nd.Host] = i
		}
		for _, h := range opt.Canaries {
			i, ok := at[h]
			if !ok {
				return l, fmt.Errorf("-canaries: no node %q in the job (nodes: %s)", h, hostList(nodes))
			}
			if !slices.Contains(l.Canaries, i) {
				l.Canaries = append(l.Canaries, i)
			}
		}
		for _, i := range order {
			if !slices.Contains(l.Canaries, i) {
				rest = append(rest, i)
			}
		}
	} else {
		nc := max(2, n-int(math.Floor((1-opt.CanaryShare)*float64(n)+1e-9)))
		l.Canaries, rest = order[:nc], order[nc:]
	}
	if len(l.Canaries) < 2 {
		return l, fmt.Errorf("-canaries: at least 2 nodes, got %d", len(l.Canaries))
	}
	k := min(len(opt.Congestors), len(rest)/2)
	if k == 0 {
		return l, fmt.Errorf("%d nodes left for the congestors: a congestor needs 2", len(rest))
	}
	l.Dropped = opt.Congestors[k:]
	l.Groups = make([]Group, k)
	for g := range l.Groups {
		l.Groups[g].Pattern = opt.Congestors[g]
	}
	for i, nd := range rest {
		l.Groups[i%k].Nodes = append(l.Groups[i%k].Nodes, nd)
	}
	return l, nil
}

func hostList(nodes []fleet.Node) string {
	var h []string
	for _, n := range nodes {
		h = append(h, n.Host)
	}
	return strings.Join(h, ", ")
}

// Hosts are the hosts of node indices.
func (l *Layout) Hosts(idx []int) []string {
	var h []string
	for _, i := range idx {
		h = append(h, l.Nodes[i].Host)
	}
	return h
}

// Role is what a world rank does: a canary (its place among the
// canaries), a congestor member (its group and its place in it), or
// neither (Canary and Group -1).
type Role struct {
	Canary, Group, Member int
}

// RoleOf is world rank r's role: the first rank of each node takes part.
func (l *Layout) RoleOf(r int) Role {
	role := Role{Canary: -1, Group: -1, Member: -1}
	first := func(i int) bool { return len(l.Nodes[i].Ranks) > 0 && l.Nodes[i].Ranks[0] == r }
	for k, i := range l.Canaries {
		if first(i) {
			role.Canary = k
		}
	}
	for g, grp := range l.Groups {
		for m, i := range grp.Nodes {
			if first(i) {
				role.Group, role.Member = g, m
			}
		}
	}
	return role
}

// Ring is the order of the canaries (places among them) in random ring
// m: a shuffle of seed and m (no shuffle with seed 0).
func Ring(canaries int, seed int64, m int) []int {
	ring := make([]int, canaries)
	for i := range ring {
		ring[i] = i
	}
	if seed != 0 {
		r := rand.New(rand.NewPCG(uint64(seed), uint64(m)+1))
		r.Shuffle(canaries, func(i, j int) { ring[i], ring[j] = ring[j], ring[i] })
	}
	return ring
}

// BatchOf is a congestor's operations between checks: -batch, or
// GPCNeT's 16384 over the group's ranks, from 1 to 256.
func (o *Options) BatchOf(members int) int {
	if o.Batch > 0 {
		return o.Batch
	}
	return max(1, min(256, 16384/max(1, members)))
}
