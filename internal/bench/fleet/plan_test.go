package fleet

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestNodes(t *testing.T) {
	got := Nodes([]string{"b", "a", "b", "c", "a"})
	want := []Node{{"b", []int{0, 2}}, {"a", []int{1, 4}}, {"c", []int{3}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Nodes = %v, want %v", got, want)
	}
}

// TestTournament: every pair once, nobody twice in a round, n-1 rounds
// for even n and n for odd.
func TestTournament(t *testing.T) {
	for n := 0; n <= 17; n++ {
		rounds := Tournament(n)
		wantRounds := n - 1 + n%2
		if n < 2 {
			wantRounds = 0
		}
		if len(rounds) != wantRounds {
			t.Errorf("n=%d: %d rounds, want %d", n, len(rounds), wantRounds)
		}
		seen := map[[2]int]int{}
		for ri, r := range rounds {
			busy := map[int]bool{}
			for _, p := range r {
				if p[0] >= p[1] || p[1] >= n {
					t.Fatalf("n=%d round %d: pair %v", n, ri, p)
				}
				if busy[p[0]] || busy[p[1]] {
					t.Errorf("n=%d round %d: a player twice (%v)", n, ri, r)
				}
				busy[p[0]], busy[p[1]] = true, true
				seen[p]++
			}
			if len(r) != n/2 {
				t.Errorf("n=%d round %d: %d pairs, want %d", n, ri, len(r), n/2)
			}
		}
		if len(seen) != n*(n-1)/2 {
			t.Errorf("n=%d: %d distinct pairs, want %d", n, len(seen), n*(n-1)/2)
		}
		for p, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: pair %v %d times", n, p, c)
			}
		}
	}
}

func TestPlan(t *testing.T) {
	nodes := Nodes([]string{"n0", "n0", "n1", "n1", "n2", "n2", "n3"}) // n3 has one rank
	cases := []struct {
		opt    func(*Options)
		rounds int
		pairs  int
	}{
		{func(o *Options) {}, 3, 6},                         // 4 nodes: 3 rounds of 2 pairs
		{func(o *Options) { o.PerNode = PerNodeAll }, 3, 9}, // 3 pairs of 2 rails, 3 of 1
		{func(o *Options) { o.PerNode = PerNodeCross }, 6, 3*4 + 3*2},
		{func(o *Options) { o.Serial = true }, 6, 6},
		{func(o *Options) { o.Sweeps = 100000000 }, 3, 6}, // one sweep: the engine repeats it
	}
	for i, c := range cases {
		opt := DefaultOptions()
		c.opt(&opt)
		plan, err := Plan(nodes, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan) != c.rounds || Pairs(plan) != c.pairs {
			t.Errorf("case %d: %d rounds, %d pairs; want %d, %d", i, len(plan), Pairs(plan), c.rounds, c.pairs)
		}
		seen := map[[2]int]int{}
		for _, r := range plan {
			busy := map[int]bool{}
			for _, p := range r {
				if busy[p.A] || busy[p.B] {
					t.Errorf("case %d: a rank twice in round %v", i, r)
				}
				busy[p.A], busy[p.B] = true, true
				if nodes[p.NodeA].Ranks[p.RankA] != p.A || nodes[p.NodeB].Ranks[p.RankB] != p.B || p.NodeA >= p.NodeB {
					t.Errorf("case %d: pair %+v", i, p)
				}
				seen[[2]int{p.A, p.B}]++
			}
		}
		if opt.PerNode == PerNodeCross {
			// every rank of every node with every rank of every other
			for a := range nodes {
				for b := a + 1; b < len(nodes); b++ {
					for _, ra := range nodes[a].Ranks {
						for _, rb := range nodes[b].Ranks {
							if seen[[2]int{ra, rb}] != 1 {
								t.Errorf("cross: ranks %d and %d measured %d times", ra, rb, seen[[2]int{ra, rb}])
							}
						}
					}
				}
			}
		}
	}
	if _, err := Plan(Nodes([]string{"x", "x"}), DefaultOptions()); err == nil {
		t.Error("one node planned")
	}
}

func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"-lat", "0", "-bw", "4m", "-i", "10", "-bw-iter", "5", "-w", "8", "-x", "0", "-budget", "500ms", "-per-node", "cross", "-serial", "-sweeps", "2"}, true},
		{[]string{"-bw", "3g"}, false},
		{[]string{"-i", "0"}, false},
		{[]string{"-per-node", "some"}, false},
		{[]string{"-w", "x"}, false},
	} {
		cl := NewCommandLine()
		fs := flag.NewFlagSet("fleet", flag.ContinueOnError)
		fs.SetOutput(nil)
		cl.Register(fs)
		err := fs.Parse(c.args)
		if (err == nil) != c.ok {
			t.Errorf("%v: error %v", c.args, err)
		}
		if c.ok && fmt.Sprint(cl.Options) != fmt.Sprint(Options{LatBytes: 0, LatIters: 10, BWBytes: 4 << 20, BWIters: 5, Window: 8, Warmup: 0, BudgetS: 0.5, PerNode: PerNodeCross, Serial: true, Sweeps: 2}) {
			t.Errorf("%v: %+v", c.args, cl.Options)
		}
	}
	if err := NewCommandLine().Finish([]string{"PingPong"}); err == nil {
		t.Error("a name taken")
	}
}

// TestLeft: -resume's pairs leave their round of their sweep, per rank
// pair; the other sweeps keep them.
func TestLeft(t *testing.T) {
	nodes := Nodes([]string{"a", "b", "c", "d"})
	plan, err := Plan(nodes, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	done := DoneSet{}
	for _, p := range plan[0] { // the first round of sweep 1, whole
		done[Done{Sweep: 0, NodeA: nodes[p.NodeA].Host, NodeB: nodes[p.NodeB].Host}] = true
	}
	p := plan[1][0] // one pair of sweep 2's second round
	done[Done{Sweep: 1, NodeA: nodes[p.NodeA].Host, NodeB: nodes[p.NodeB].Host}] = true
	done[Done{Sweep: 1, NodeA: "a", NodeB: "b", RankA: 1}] = true // another rank pair: not this one
	for _, c := range []struct{ round, sweep, want int }{{0, 0, 0}, {0, 1, 2}, {1, 0, 2}, {1, 1, 1}, {2, 1, 2}} {
		got := done.Left(plan[c.round], c.sweep, nodes)
		if len(got) != c.want {
			t.Errorf("round %d of sweep %d: %d pairs left, want %d", c.round, c.sweep, len(got), c.want)
		}
		if c.round == 1 && c.sweep == 1 && slices.Contains(got, p) {
			t.Errorf("sweep 2's done pair %+v still planned", p)
		}
	}
}
