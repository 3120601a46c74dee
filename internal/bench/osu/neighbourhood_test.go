package osu

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTopology(t *testing.T) {
	cases := []struct {
		in   string
		want Topology
		err  string
	}{
		{"cart:1:1", Topology{Kind: "cart", Dim: 1, Radius: 1}, ""},
		{"CART:3:2", Topology{Kind: "cart", Dim: 3, Radius: 2}, ""},
		{"graph:/tmp/g.txt", Topology{Kind: "graph", File: "/tmp/g.txt"}, ""},
		{"graph:a:b", Topology{Kind: "graph", File: "a:b"}, ""},
		{"cart:1", Topology{}, "want cart:DIMENSIONS:RADIUS"},
		{"cart:0:1", Topology{}, "dimensions 1 to 8"},
		{"cart:9:1", Topology{}, "dimensions 1 to 8"},
		{"cart:2:0", Topology{}, "radius at least 1"},
		{"cart:x:1", Topology{}, "want cart"},
		{"graph", Topology{}, "want graph:FILE"},
		{"graph:", Topology{}, "want graph:FILE"},
		{"torus:2:1", Topology{}, "want cart:DIMENSIONS:RADIUS or graph:FILE"},
		{"", Topology{}, "want cart"},
	}
	for _, c := range cases {
		got, err := ParseTopology(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if again, err := ParseTopology(got.String()); err != nil || again != got {
			t.Errorf("%q: round trip %q gives %+v, %v", c.in, got.String(), again, err)
		}
	}
}

// TestCartNeighbourhood: OSU's walk of the grid (every displacement from
// -r to r, the last dimension fastest, the rank itself left out), on rings
// and grids; too short a dimension is refused.
func TestCartNeighbourhood(t *testing.T) {
	cases := []struct {
		np     int
		dims   []int
		radius int
		rank   int
		want   []int
	}{
		{4, []int{4}, 1, 0, []int{3, 1}},
		{4, []int{4}, 1, 3, []int{2, 0}},
		{5, []int{5}, 2, 0, []int{3, 4, 1, 2}},
		// 3x3: rank 4 (1,1) sees the other 8 in row-major order
		{9, []int{3, 3}, 1, 4, []int{0, 1, 2, 3, 5, 6, 7, 8}},
		// 3x3, rank 0 (0,0): (-1,-1)=(2,2)=8, (-1,0)=6, (-1,1)=7, (0,-1)=2, ...
		{9, []int{3, 3}, 1, 0, []int{8, 6, 7, 2, 1, 5, 3, 4}},
		// 4x3: rank 5 = (1,2)
		{12, []int{4, 3}, 1, 5, []int{1, 2, 0, 4, 3, 7, 8, 6}},
	}
	for _, c := range cases {
		n, err := CartNeighbourhood(c.np, c.dims, c.radius)
		if err != nil {
			t.Fatalf("%v r%d: %v", c.dims, c.radius, err)
		}
		if !reflect.DeepEqual(n.Dests[c.rank], c.want) || !reflect.DeepEqual(n.Sources[c.rank], c.want) {
			t.Errorf("%v r%d rank %d: sources %v dests %v, want %v", c.dims, c.radius, c.rank, n.Sources[c.rank], n.Dests[c.rank], c.want)
		}
		side := 1
		for range c.dims {
			side *= 2*c.radius + 1
		}
		if n.Edges() != c.np*(side-1) || n.MaxDegree() != side-1 {
			t.Errorf("%v r%d: %d edges, degree %d", c.dims, c.radius, n.Edges(), n.MaxDegree())
		}
		// on a symmetric grid every rank's block for a neighbour comes
		// back to it: the slots pair the walk with its mirror
		for me := range c.np {
			for l, s := range n.Slots(me) {
				if n.Dests[n.Sources[me][l]][s] != me {
					t.Errorf("%v rank %d: slot %d of source %d is not it", c.dims, me, s, n.Sources[me][l])
				}
			}
		}
	}
	for _, c := range []struct {
		np     int
		dims   []int
		radius int
		err    string
	}{
		{2, []int{2}, 1, "radius 1 needs every dimension at least 3 long"},
		{4, []int{4}, 2, "radius 2 needs every dimension at least 5 long"},
		{4, []int{2, 2}, 1, "4 processes make a grid of 2 x 2"},
		{6, []int{4}, 1, "does not hold 6 processes"},
	} {
		if _, err := CartNeighbourhood(c.np, c.dims, c.radius); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v r%d on %d: %v, want %q", c.dims, c.radius, c.np, err, c.err)
		}
	}
}

func TestGraphNeighbourhood(t *testing.T) {
	n, err := GraphNeighbourhood([]byte("# a graph\n0,1\n 1 , 2 \n\n0,1\n2,2\n3,0\n#0,3\n1,0\n"), "g", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := struct{ src, dst [][]int }{
		src: [][]int{{3, 1}, {0, 0}, {1, 2}, nil},
		dst: [][]int{{1, 1}, {2, 0}, {2}, {0}},
	}
	if !reflect.DeepEqual(n.Sources, want.src) || !reflect.DeepEqual(n.Dests, want.dst) || n.Edges() != 6 || n.MaxDegree() != 2 {
		t.Errorf("sources %v dests %v edges %d", n.Sources, n.Dests, n.Edges())
	}
	// the doubled edge 0->1: the first edge into 1 is 0's first block to it
	if got := n.Slots(1); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("slots of 1: %v", got)
	}
	if got := n.Slots(0); !reflect.DeepEqual(got, []int{0, 1}) { // 3's only block, 1's second
		t.Errorf("slots of 0: %v", got)
	}
	if got := n.Slots(2); !reflect.DeepEqual(got, []int{0, 0}) {
		t.Errorf("slots of 2: %v", got)
	}
	for _, c := range []struct{ text, err string }{
		{"0,1\n1;2\n", "line 2: want SRC,DST"},
		{"0,1,2\n", "line 1: want SRC,DST"},
		{"-1,0\n", "line 1: want SRC,DST"},
		{"0,4\n", "edge 0,4 names rank 4; the job has 4 processes"},
		{"# nothing\n\n", "no edges"},
	} {
		if _, err := GraphNeighbourhood([]byte(c.text), "g", 4); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.text, err, c.err)
		}
	}
}

// FuzzGraphNeighbourhood: any adjacency list either fails with an error
// or gives sources and destinations that mirror each other, with slots
// that name this rank in each source's destinations.
func FuzzGraphNeighbourhood(f *testing.F) {
	f.Add([]byte("0,1\n1,0\n"), 2)
	f.Add([]byte("# c\n0,1\n0,1\n2,2\n"), 3)
	f.Add([]byte("0,\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, np int) {
		if np < 1 || np > 64 {
			return
		}
		n, err := GraphNeighbourhood(data, "f", np)
		if err != nil {
			return
		}
		in, out := 0, 0
		for me := range np {
			in += len(n.Sources[me])
			out += len(n.Dests[me])
			for l, s := range n.Slots(me) {
				src := n.Sources[me][l]
				if s < 0 || s >= len(n.Dests[src]) || n.Dests[src][s] != me {
					t.Fatalf("rank %d: slot %d of source %d", me, s, src)
				}
			}
		}
		if in != out || in != n.Edges() || in == 0 {
			t.Fatalf("%d in, %d out, %d edges", in, out, n.Edges())
		}
	})
}

func FuzzParseTopology(f *testing.F) {
	for _, s := range []string{"cart:1:1", "graph:x", "cart:2:3", "cart::", "graph:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tp, err := ParseTopology(s)
		if err != nil {
			return
		}
		if again, err := ParseTopology(tp.String()); err != nil || again != tp {
			t.Fatalf("%q: %+v round-trips to %+v, %v", s, tp, again, err)
		}
	})
}
