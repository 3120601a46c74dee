package osu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Topology is the neighbourhood collectives' -N as OSU 7.2 defines it:
// cart:D:R, a periodic Cartesian grid of D dimensions (MPI_Dims_create's
// split of the processes) where every rank's neighbours are the ranks
// within R steps along every dimension, the diagonals included ((2R+1)^D-1
// of them); or graph:FILE, the edges of an adjacency list, a "SRC,DST"
// line each, '#' lines comments.
type Topology struct {
	Kind   string `json:"kind"` // "cart" or "graph"
	Dim    int    `json:"dimensions,omitempty"`
	Radius int    `json:"radius,omitempty"`
	File   string `json:"file,omitempty"`
}

// DefaultTopology is OSU's default, cart:1:1: a ring, each rank's
// neighbours the ranks on either side.
var DefaultTopology = Topology{Kind: "cart", Dim: 1, Radius: 1}

// maxCartDims bounds cart's dimensions: 3^9-1 neighbours a rank at radius
// 1 is far past any grid gomb runs on.
const maxCartDims = 8

// ParseTopology reads -N.
func ParseTopology(s string) (Topology, error) {
	kind, rest, _ := strings.Cut(s, ":")
	switch strings.ToLower(kind) {
	case "cart":
		d, r, ok := strings.Cut(rest, ":")
		dim, err1 := strconv.Atoi(d)
		rad, err2 := strconv.Atoi(r)
		if !ok || err1 != nil || err2 != nil || dim < 1 || dim > maxCartDims || rad < 1 {
			return Topology{}, fmt.Errorf("-N %q: want cart:DIMENSIONS:RADIUS, dimensions 1 to %d, radius at least 1", s, maxCartDims)
		}
		return Topology{Kind: "cart", Dim: dim, Radius: rad}, nil
	case "graph":
		if rest == "" {
			return Topology{}, fmt.Errorf("-N %q: want graph:FILE, an adjacency list of SRC,DST lines", s)
		}
		return Topology{Kind: "graph", File: rest}, nil
	}
	return Topology{}, fmt.Errorf("-N %q: want cart:DIMENSIONS:RADIUS or graph:FILE", s)
}

// String is -N's spelling.
func (t Topology) String() string {
	if t.Kind == "graph" {
		return "graph:" + t.File
	}
	return fmt.Sprintf("cart:%d:%d", t.Dim, t.Radius)
}

// Neighbourhood is every rank's neighbours: the sources it receives from
// and the destinations it sends to, in the order MPI is given them.
type Neighbourhood struct {
	Topology
	// Dims is the grid's size along each dimension (cart).
	Dims           []int
	Sources, Dests [][]int
}

// CartNeighbourhood lays np ranks out on the periodic grid dims (row-major,
// as MPI_Cart_create without reordering) and gives each the ranks within
// radius along every dimension, as OSU's omb_neighborhood_create walks
// them: every displacement from -radius to radius, the last dimension
// fastest, the rank itself left out; the same list is its sources and its
// destinations. A radius that would make a rank its own neighbour twice
// over (a dimension shorter than 2*radius+1) is refused, as OSU refuses it.
func CartNeighbourhood(np int, dims []int, radius int) (*Neighbourhood, error) {
	d := len(dims)
	total := 1
	for _, v := range dims {
		total *= v
	}
	if d == 0 || total != np {
		return nil, fmt.Errorf("grid %v does not hold %d processes", dims, np)
	}
	if m := slices.Min(dims); m < 2*radius+1 {
		return nil, fmt.Errorf("-N cart:%d:%d: %d processes make a grid of %s; radius %d needs every dimension at least %d long: start more processes or lower the dimensions or the radius",
			d, radius, np, dimsString(dims), radius, 2*radius+1)
	}
	n := &Neighbourhood{Topology: Topology{Kind: "cart", Dim: d, Radius: radius}, Dims: slices.Clone(dims),
		Sources: make([][]int, np), Dests: make([][]int, np)}
	coord := make([]int, d)
	disp := make([]int, d)
	for me := 0; me < np; me++ {
		for i, r := d-1, me; i >= 0; i-- {
			coord[i], r = r%dims[i], r/dims[i]
		}
		for i := range disp {
			disp[i] = -radius
		}
		var list []int
		for {
			nbr := 0
			for i := 0; i < d; i++ {
				c := ((coord[i]+disp[i])%dims[i] + dims[i]) % dims[i]
				nbr = nbr*dims[i] + c
			}
			if nbr != me {
				list = append(list, nbr)
			}
			i := d - 1
			for ; i >= 0 && disp[i] == radius; i-- {
				disp[i] = -radius
			}
			if i < 0 {
				break
			}
			disp[i]++
		}
		n.Sources[me], n.Dests[me] = list, slices.Clone(list)
	}
	return n, nil
}

func dimsString(dims []int) string {
	s := make([]string, len(dims))
	for i, v := range dims {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, " x ")
}

// GraphNeighbourhood reads an adjacency list (OSU's -N graph:FILE): a
// directed edge "SRC,DST" a line, '#' lines and blank lines skipped. A
// rank's destinations are the edges from it, its sources the edges to it,
// each in the order of the file. Ranks must be below np.
func GraphNeighbourhood(data []byte, file string, np int) (*Neighbourhood, error) {
	n := &Neighbourhood{Topology: Topology{Kind: "graph", File: file}, Sources: make([][]int, np), Dests: make([][]int, np)}
	edges := 0
	err := intPairs(data, "SRC,DST ranks", func(line, src, dst int) error {
		if src >= np || dst >= np {
			return fmt.Errorf("line %d: edge %d,%d names rank %d; the job has %d processes", line, src, dst, max(src, dst), np)
		}
		n.Dests[src] = append(n.Dests[src], dst)
		n.Sources[dst] = append(n.Sources[dst], src)
		edges++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("-N graph:%s %w", file, err)
	}
	if edges == 0 {
		return nil, fmt.Errorf("-N graph:%s: no edges", file)
	}
	return n, nil
}

// Slots gives, for each source of rank me, the index of me among that
// source's destinations: which of its blocks an all-to-all sends to me.
// Between a pair joined by several edges, the k-th edge into me is the
// k-th out of the source.
func (n *Neighbourhood) Slots(me int) []int {
	seen := map[int]int{}
	out := make([]int, len(n.Sources[me]))
	for l, s := range n.Sources[me] {
		k := seen[s]
		seen[s]++
		out[l] = -1
		for i, d := range n.Dests[s] {
			if d != me {
				continue
			}
			if k == 0 {
				out[l] = i
				break
			}
			k--
		}
	}
	return out
}

// Edges is the number of directed edges.
func (n *Neighbourhood) Edges() int {
	e := 0
	for _, d := range n.Dests {
		e += len(d)
	}
	return e
}

// MaxDegree is the most sources or destinations any rank has.
func (n *Neighbourhood) MaxDegree() int {
	m := 0
	for i := range n.Sources {
		m = max(m, len(n.Sources[i]), len(n.Dests[i]))
	}
	return m
}
