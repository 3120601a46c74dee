package osu

import (
	"slices"
	"strings"
	"testing"
)

// TestFan: OSU 7.4's layout of the fan tests: nodes in name order, local
// ranks in rank order, parent i with local rank i of every other node.
func TestFan(t *testing.T) {
	type role struct {
		parent bool
		peers  []int
	}
	cases := []struct {
		name   string
		hosts  []string
		nodes  int
		ppn    int
		roles  []role // by rank
		errSub string
	}{
		{"pair", []string{"a", "b"}, 2, 1, []role{{true, []int{1}}, {false, []int{0}}}, ""},
		{"block 2x2", []string{"a", "a", "b", "b"}, 2, 2,
			[]role{{true, []int{2}}, {true, []int{3}}, {false, []int{0}}, {false, []int{1}}}, ""},
		{"cyclic 2x2", []string{"a", "b", "a", "b"}, 2, 2,
			[]role{{true, []int{1}}, {false, []int{0}}, {true, []int{3}}, {false, []int{2}}}, ""},
		// the first node is the first name, wherever rank 0 runs
		{"rank 0 a child", []string{"n2", "n1", "n3"}, 3, 1,
			[]role{{false, []int{1}}, {true, []int{0, 2}}, {false, []int{1}}}, ""},
		{"one host", []string{"a", "a"}, 0, 0, nil, "two or more hosts (nodes): all 2 run on a"},
		{"unequal", []string{"a", "a", "b"}, 0, 0, nil, "as many ranks on every host: a has 2, b has 1"},
		{"unequal later", []string{"a", "b", "c", "c"}, 0, 0, nil, "a has 1, c has 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewFan(c.hosts)
			if c.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), c.errSub) {
					t.Fatalf("error %v, want one with %q", err, c.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Nodes != c.nodes || f.PPN != c.ppn || f.Streams() != c.ppn*(c.nodes-1) {
				t.Errorf("%d nodes, %d per node, %d streams", f.Nodes, f.PPN, f.Streams())
			}
			for r, want := range c.roles {
				if p, peers := f.Role(r); p != want.parent || !slices.Equal(peers, want.peers) {
					t.Errorf("rank %d: parent %v peers %v, want %v %v", r, p, peers, want.parent, want.peers)
				}
			}
		})
	}
}
