package congestion

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
)

func nodesOf(n, ppn int) []fleet.Node {
	var hosts []string
	for i := range n {
		for range ppn {
			hosts = append(hosts, fmt.Sprintf("c%02d", i+1))
		}
	}
	return fleet.Nodes(hosts)
}

// TestPlan: GPCNeT's layout (a fifth canaries, at least two; the rest
// dealt to the congestors in turn), -canaries, dropped congestors, and the
// refusals.
func TestPlan(t *testing.T) {
	def := DefaultOptions()
	host := def
	host.Seed = 0
	named := host
	named.Canaries = []string{"c01", "c05"}
	two := host
	two.Congestors = []string{"incast", "alltoall"}
	for _, c := range []struct {
		name     string
		n        int
		opt      Options
		canaries []int
		groups   [][]int
		dropped  []string
		err      string
	}{
		{"10 nodes in host order", 10, host, []int{0, 1}, [][]int{{2, 6}, {3, 7}, {4, 8}, {5, 9}}, nil, ""},
		{"64 nodes: 13 canaries (GPCNeT's 64-node run)", 64, host, seq(0, 13), nil, nil, ""},
		{"4 nodes: one congestor", 4, host, []int{0, 1}, [][]int{{2, 3}}, []string{"incast", "put_incast", "get_bcast"}, ""},
		{"named canaries: 6 congestor nodes, 3 congestors", 8, named, []int{0, 4}, [][]int{{1, 5}, {2, 6}, {3, 7}}, []string{"get_bcast"}, ""},
		{"two congestors, 8 nodes", 8, func() Options { o := two; o.Canaries = []string{"c01", "c05"}; return o }(),
			[]int{0, 4}, [][]int{{1, 3, 6}, {2, 5, 7}}, nil, ""},
		{"3 nodes", 3, host, nil, nil, nil, "at least 4 nodes"},
		{"unknown canary", 8, func() Options { o := host; o.Canaries = []string{"c01", "x9"}; return o }(), nil, nil, nil, `no node "x9"`},
		{"one canary", 8, func() Options { o := host; o.Canaries = []string{"c01", "c01"}; return o }(), nil, nil, nil, "at least 2"},
		{"no congestor node left", 5, func() Options { o := host; o.Canaries = []string{"c01", "c02", "c03", "c04"}; return o }(), nil, nil, nil, "a congestor needs 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, err := Plan(nodesOf(c.n, 1), c.opt)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l.Canaries, c.canaries) {
				t.Errorf("canaries %v, want %v", l.Canaries, c.canaries)
			}
			if c.groups != nil {
				var got [][]int
				for _, g := range l.Groups {
					got = append(got, g.Nodes)
				}
				if !reflect.DeepEqual(got, c.groups) {
					t.Errorf("groups %v, want %v", got, c.groups)
				}
			}
			if !slices.Equal(l.Dropped, c.dropped) {
				t.Errorf("dropped %v, want %v", l.Dropped, c.dropped)
			}
			// every node once, canary or congestor
			seen := map[int]int{}
			for _, i := range l.Canaries {
				seen[i]++
			}
			for _, g := range l.Groups {
				if len(g.Nodes) < 2 {
					t.Errorf("congestor %s on %d node", g.Pattern, len(g.Nodes))
				}
				for _, i := range g.Nodes {
					seen[i]++
				}
			}
			if len(seen) != c.n {
				t.Errorf("%d of %d nodes placed", len(seen), c.n)
			}
			for i, k := range seen {
				if k != 1 {
					t.Errorf("node %d placed %d times", i, k)
				}
			}
		})
	}
}

func seq(from, n int) []int {
	var s []int
	for i := range n {
		s = append(s, from+i)
	}
	return s
}

// TestPlanShuffle: a seed shuffles the nodes, the same way on every rank
// and every run; a share of 0.2 keeps a fifth canaries.
func TestPlanShuffle(t *testing.T) {
	o := DefaultOptions()
	a, err := Plan(nodesOf(20, 1), o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Plan(nodesOf(20, 1), o)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed laid the nodes out twice differently")
	}
	if slices.Equal(a.Canaries, []int{0, 1, 2, 3}) || len(a.Canaries) != 4 {
		t.Errorf("canaries %v: want 4, drawn", a.Canaries)
	}
	o.Seed = 2
	c, _ := Plan(nodesOf(20, 1), o)
	if reflect.DeepEqual(a.Canaries, c.Canaries) {
		t.Error("another seed drew the same canaries")
	}
}

// TestRoleOf: the first rank of each node takes part, the others wait.
func TestRoleOf(t *testing.T) {
	o := DefaultOptions()
	o.Seed = 0
	l, err := Plan(nodesOf(4, 2), o) // ranks 0-1 on c01, ...
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range []Role{{0, -1, -1}, {-1, -1, -1}, {1, -1, -1}, {-1, -1, -1}, {-1, 0, 0}, {-1, -1, -1}, {-1, 0, 1}, {-1, -1, -1}} {
		if got := l.RoleOf(r); got != want {
			t.Errorf("rank %d: %+v, want %+v", r, got, want)
		}
	}
}

// TestRing: a ring is a permutation of the canaries; seed 0 keeps their
// order; rings of one seed differ.
func TestRing(t *testing.T) {
	if got := Ring(5, 0, 3); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("seed 0: %v", got)
	}
	distinct := map[string]bool{}
	for m := range 30 {
		r := Ring(13, 1, m)
		s := slices.Clone(r)
		slices.Sort(s)
		if !slices.Equal(s, seq(0, 13)) {
			t.Fatalf("ring %d: %v is no permutation", m, r)
		}
		distinct[fmt.Sprint(r)] = true
	}
	if len(distinct) < 25 {
		t.Errorf("%d distinct rings of 30", len(distinct))
	}
}

// TestBatchOf: GPCNeT's 16384 operations over the group's ranks, 1 to
// 256, or -batch.
func TestBatchOf(t *testing.T) {
	o := DefaultOptions()
	for _, c := range [][2]int{{2, 256}, {64, 256}, {100, 163}, {20000, 1}} {
		if got := o.BatchOf(c[0]); got != c[1] {
			t.Errorf("%d ranks: %d, want %d", c[0], got, c[1])
		}
	}
	o.Batch = 7
	if o.BatchOf(2) != 7 {
		t.Error("-batch ignored")
	}
}
