package fleet

import (
	"fmt"

	"github.com/gomb-hpc/gomb/result"
)

// Node is a host and its world ranks, in rank order.
type Node struct {
	Host  string
	Ranks []int
}

// Nodes groups the world's ranks by host (hosts[r] is rank r's), the
// nodes in the order of their first rank.
func Nodes(hosts []string) []Node {
	var nodes []Node
	at := map[string]int{}
	for r, h := range hosts {
		i, ok := at[h]
		if !ok {
			i = len(nodes)
			at[h] = i
			nodes = append(nodes, Node{Host: h})
		}
		nodes[i].Ranks = append(nodes[i].Ranks, r)
	}
	return nodes
}

// Pair is one measurement: world rank A (the first, which times and
// sends the bandwidth windows) with world rank B, of nodes NodeA < NodeB;
// RankA and RankB are their places among their nodes' ranks (the NIC
// each uses, where a node binds a NIC to a rank).
type Pair struct {
	NodeA, NodeB int
	RankA, RankB int // local ranks
	A, B         int // world ranks
}

// Round is pairs measured at once: no rank is in two of them.
type Round []Pair

// Tournament is the circle method's schedule of n players: every pair
// once, in rounds where each player meets at most one other (n-1 rounds
// of n/2 pairs for even n, n rounds for odd n, a player resting in each).
// Each pair is (lower, higher).
func Tournament(n int) [][][2]int {
	if n < 2 {
		return nil
	}
	m := n + n%2 // a resting slot for odd n: player m-1 does not exist
	ring := make([]int, m-1)
	for i := range ring {
		ring[i] = i + 1
	}
	var rounds [][][2]int
	for r := 0; r < m-1; r++ {
		var round [][2]int
		add := func(a, b int) {
			if a >= n || b >= n {
				return // a rest
			}
			round = append(round, [2]int{min(a, b), max(a, b)})
		}
		add(0, ring[0])
		for k := 1; k < m/2; k++ {
			add(ring[k], ring[m-1-k])
		}
		rounds = append(rounds, round)
		ring = append(ring[len(ring)-1:], ring[:len(ring)-1]...) // rotate by one
	}
	return rounds
}

// Plan is one sweep's rounds over nodes, as opt asks (the engine runs it
// -sweeps times: a plan of every sweep up front took a rank's memory
// whole at -sweeps 100000000): every node pair of
// Tournament; per node pair, one rank each (PerNodeOne), the i-th rank of
// each for every i up to the smaller node's count (PerNodeAll), or every
// rank with every rank of the partner, as many sub-rounds as the larger
// count (PerNodeCross: the i-th of node A with the (i+s)-th of node B in
// sub-round s). Serial gives each pair a round of its own.
func Plan(nodes []Node, opt Options) ([]Round, error) {
	if len(nodes) < 2 {
		return nil, fmt.Errorf("a fleet sweep needs ranks on at least 2 nodes, all %d ranks are on %s", len(nodes[0].Ranks), nodes[0].Host)
	}
	var plan []Round
	for _, tr := range Tournament(len(nodes)) {
		var subs []Round
		for _, np := range tr {
			a, b := nodes[np[0]], nodes[np[1]]
			pair := func(i, j int) Pair {
				return Pair{NodeA: np[0], NodeB: np[1], RankA: i, RankB: j, A: a.Ranks[i], B: b.Ranks[j]}
			}
			switch opt.PerNode {
			case PerNodeAll:
				subs = grow(subs, 1)
				for i := 0; i < min(len(a.Ranks), len(b.Ranks)); i++ {
					subs[0] = append(subs[0], pair(i, i))
				}
			case PerNodeCross:
				// sub-round s pairs A's i-th with B's (i+s)-th: over the
				// larger count of sub-rounds every (i, j) comes once, and
				// within one no rank is used twice
				ka, kb := len(a.Ranks), len(b.Ranks)
				k := max(ka, kb)
				subs = grow(subs, k)
				for s := 0; s < k; s++ {
					for i := 0; i < k; i++ {
						if ia, jb := i, (i+s)%k; ia < ka && jb < kb {
							subs[s] = append(subs[s], pair(ia, jb))
						}
					}
				}
			default:
				subs = grow(subs, 1)
				subs[0] = append(subs[0], pair(0, 0))
			}
		}
		for _, r := range subs {
			if len(r) > 0 {
				plan = append(plan, r)
			}
		}
	}
	if opt.Serial {
		var serial []Round
		for _, r := range plan {
			for _, p := range r {
				serial = append(serial, Round{p})
			}
		}
		plan = serial
	}
	return plan, nil
}

// grow makes subs at least n long.
func grow(subs []Round, n int) []Round {
	for len(subs) < n {
		subs = append(subs, nil)
	}
	return subs
}

// Pairs counts the measurements of a plan.
func Pairs(plan []Round) int {
	n := 0
	for _, r := range plan {
		n += len(r)
	}
	return n
}

// NodeOf names the node of a pair's side (0 or 1) as a sweep grouped its
// ranks: the host; host:rank where both share a host (-by-rank made every
// rank a node); host#k, k the local rank, where several ranks of a node
// took part (local).
func NodeOf(p *result.Pair, side int, local bool) string {
	switch {
	case p.Hosts[0] == p.Hosts[1]:
		return fmt.Sprintf("%s:%d", p.Hosts[side], p.Ranks[side])
	case local:
		return fmt.Sprintf("%s#%d", p.Hosts[side], p.Local[side])
	}
	return p.Hosts[side]
}

// Done is a measured pair of a sweep, as its records name it: the sweep,
// both nodes and the ranks' places on them (result.Pair's).
type Done struct {
	Sweep        int
	NodeA, NodeB string
	RankA, RankB int
}

// DoneOf is the pair a record's Pair is.
func DoneOf(p *result.Pair) Done {
	return Done{Sweep: p.Sweep, NodeA: NodeOf(p, 0, false), NodeB: NodeOf(p, 1, false), RankA: p.Local[0], RankB: p.Local[1]}
}

// DoneSet is the pairs an earlier sweep measured (-resume).
type DoneSet map[Done]bool

// Left is round r of sweep sweep less the pairs in d: the pairs a resumed
// sweep still measures, each keeping its round's number.
func (d DoneSet) Left(r Round, sweep int, nodes []Node) Round {
	if len(d) == 0 {
		return r
	}
	var out Round
	for _, p := range r {
		if !d[Done{Sweep: sweep, NodeA: nodes[p.NodeA].Host, NodeB: nodes[p.NodeB].Host, RankA: p.RankA, RankB: p.RankB}] {
			out = append(out, p)
		}
	}
	return out
}

// NodesOf groups the ranks of hosts (rank r's host is hosts[r]) into
// nodes: by host, or with byRank every rank a node of its own
// ("host:rank").
func NodesOf(hosts []string, byRank bool) []Node {
	if !byRank {
		return Nodes(hosts)
	}
	group := make([]string, len(hosts))
	for r, h := range hosts {
		group[r] = fmt.Sprintf("%s:%d", h, r)
	}
	return Nodes(group)
}
