package osu

import (
	"fmt"
	"sort"
)

// Fan is how OSU 7.4's osu_bw_fan_in and osu_bw_fan_out (utils/
// osu_bw_fan_util.c) place the ranks: the nodes are the distinct hosts in
// name order, a rank's local rank its place among its host's ranks; the
// ranks of the first node are the parents, and parent i exchanges with
// local rank i of every other node, in node order. Every node must hold
// the same number of ranks, and there must be at least two nodes.
type Fan struct {
	Nodes, PPN int
	Hosts      []string // the nodes' names, in order
	byNode     [][]int  // the ranks of each node, in rank order
	node       []int    // each rank's node
	local      []int    // each rank's local rank
}

// NewFan lays out the ranks running on hosts (one entry a rank).
func NewFan(hosts []string) (*Fan, error) {
	if len(hosts) == 0 {
		return nil, fmt.Errorf("no ranks")
	}
	order := make([]int, len(hosts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return hosts[order[a]] < hosts[order[b]] })
	f := &Fan{node: make([]int, len(hosts)), local: make([]int, len(hosts))}
	for _, r := range order {
		if len(f.Hosts) == 0 || f.Hosts[len(f.Hosts)-1] != hosts[r] {
			f.Hosts = append(f.Hosts, hosts[r])
			f.byNode = append(f.byNode, nil)
		}
		n := len(f.Hosts) - 1
		f.node[r], f.local[r] = n, len(f.byNode[n])
		f.byNode[n] = append(f.byNode[n], r)
	}
	f.Nodes, f.PPN = len(f.Hosts), len(f.byNode[0])
	if f.Nodes < 2 {
		return nil, fmt.Errorf("needs ranks on two or more hosts (nodes): all %d run on %s", len(hosts), f.Hosts[0])
	}
	for n, ranks := range f.byNode {
		if len(ranks) != f.PPN {
			return nil, fmt.Errorf("needs as many ranks on every host: %s has %d, %s has %d",
				f.Hosts[0], f.PPN, f.Hosts[n], len(ranks))
		}
	}
	return f, nil
}

// Role is a rank's part: a parent and its children (one a node after the
// first), or a child and its parent.
func (f *Fan) Role(rank int) (parent bool, peers []int) {
	l := f.local[rank]
	if f.node[rank] == 0 {
		for _, ranks := range f.byNode[1:] {
			peers = append(peers, ranks[l])
		}
		return true, peers
	}
	return false, []int{f.byNode[0][l]}
}

// Streams is the number of parent-child pairs, each of which moves a
// window an iteration.
func (f *Fan) Streams() int { return f.PPN * (f.Nodes - 1) }
