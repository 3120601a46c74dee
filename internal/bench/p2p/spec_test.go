package p2p

import (
	"flag"
	"reflect"
	"strings"
	"testing"
)

// imbGrids is what IMB-P2P 2021.11's own grid code (imb_p2p_stencil2d.c,
// imb_p2p_stencil3d.c, compiled alone) gives for 1 to 64 processes:
// np, 2-D (ly, lx), 3-D (lz, ly, lx), zeros where the stencil is invalid.
var imbGrids = [][6]int{
	{1, 0, 0, 0, 0, 0},
	{2, 0, 0, 0, 0, 0},
	{3, 0, 0, 0, 0, 0},
	{4, 2, 2, 0, 0, 0},
	{5, 0, 0, 0, 0, 0},
	{6, 3, 2, 0, 0, 0},
	{7, 0, 0, 0, 0, 0},
	{8, 2, 4, 2, 2, 2},
	{9, 3, 3, 0, 0, 0},
	{10, 2, 5, 0, 0, 0},
	{11, 0, 0, 0, 0, 0},
	{12, 4, 3, 2, 3, 2},
	{13, 0, 0, 0, 0, 0},
	{14, 2, 7, 0, 0, 0},
	{15, 3, 5, 0, 0, 0},
	{16, 4, 4, 2, 2, 4},
	{17, 0, 0, 0, 0, 0},
	{18, 3, 6, 2, 3, 3},
	{19, 0, 0, 0, 0, 0},
	{20, 5, 4, 2, 2, 5},
	{21, 3, 7, 0, 0, 0},
	{22, 2, 11, 0, 0, 0},
	{23, 0, 0, 0, 0, 0},
	{24, 4, 6, 2, 4, 3},
	{25, 5, 5, 0, 0, 0},
	{26, 2, 13, 0, 0, 0},
	{27, 3, 9, 3, 3, 3},
	{28, 4, 7, 2, 2, 7},
	{29, 0, 0, 0, 0, 0},
	{30, 6, 5, 2, 3, 5},
	{31, 0, 0, 0, 0, 0},
	{32, 4, 8, 2, 4, 4},
	{33, 3, 11, 0, 0, 0},
	{34, 2, 17, 0, 0, 0},
	{35, 5, 7, 0, 0, 0},
	{36, 6, 6, 3, 4, 3},
	{37, 0, 0, 0, 0, 0},
	{38, 2, 19, 0, 0, 0},
	{39, 3, 13, 0, 0, 0},
	{40, 5, 8, 2, 5, 4},
	{41, 0, 0, 0, 0, 0},
	{42, 7, 6, 2, 3, 7},
	{43, 0, 0, 0, 0, 0},
	{44, 4, 11, 2, 2, 11},
	{45, 5, 9, 3, 3, 5},
	{46, 2, 23, 0, 0, 0},
	{47, 0, 0, 0, 0, 0},
	{48, 6, 8, 3, 4, 4},
	{49, 7, 7, 0, 0, 0},
	{50, 5, 10, 2, 5, 5},
	{51, 3, 17, 0, 0, 0},
	{52, 4, 13, 2, 2, 13},
	{53, 0, 0, 0, 0, 0},
	{54, 6, 9, 3, 3, 6},
	{55, 5, 11, 0, 0, 0},
	{56, 8, 7, 2, 4, 7},
	{57, 3, 19, 0, 0, 0},
	{58, 2, 29, 0, 0, 0},
	{59, 0, 0, 0, 0, 0},
	{60, 6, 10, 3, 5, 4},
	{61, 0, 0, 0, 0, 0},
	{62, 2, 31, 0, 0, 0},
	{63, 7, 9, 3, 3, 7},
	{64, 8, 8, 4, 4, 4},
}

func TestGrids(t *testing.T) {
	for _, g := range imbGrids {
		np := g[0]
		for _, c := range []struct {
			grid func(np, me int) ([]int, []int, bool)
			want []int
		}{{grid2D, g[1:3]}, {grid3D, g[3:6]}} {
			dims, _, ok := c.grid(np, 0)
			valid := c.want[0] != 0
			if ok != valid || (ok && !reflect.DeepEqual(dims, c.want)) {
				t.Errorf("np %d: dims %v %v, IMB-P2P's %v", np, dims, ok, c.want)
				continue
			}
			if !ok {
				continue
			}
			// neighbours come in pairs: i's left has i as its right, ...
			for me := 0; me < np; me++ {
				_, nb, _ := c.grid(np, me)
				for k := 0; k < len(nb); k += 2 {
					_, back, _ := c.grid(np, nb[k])
					if back[k+1] != me {
						t.Errorf("np %d rank %d: neighbour %d of direction %d does not point back", np, me, nb[k], k)
					}
				}
			}
		}
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"PingPong", "PingPing", "Unirandom", "Birandom", "Corandom", "Stencil2D", "Stencil3D", "SendRecv_Replace"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("default list %v, want %v", got, want)
	}
	for _, n := range want {
		if s, ok := Lookup(strings.ToLower(n)); !ok || s.Name != n || s.Summary == "" {
			t.Errorf("Lookup(%q) = %+v, %v", n, s, ok)
		}
	}
	for np, runs := range map[int][]bool{ // in the order above
		1: {false, false, false, false, false, false, false, false},
		2: {true, true, true, true, true, false, false, true},
		3: {false, false, true, true, true, false, false, true},
		8: {true, true, true, true, true, true, true, true},
	} {
		for i, s := range Specs() {
			if s.Runs(np) != runs[i] {
				t.Errorf("%s runs with %d processes: %v", s.Name, np, s.Runs(np))
			}
		}
	}
	s, _ := Lookup("stencil2d")
	if got := s.Title(8); got != "Stencil2D (2 x 4)" {
		t.Errorf("title %q", got)
	}
	if got := s.InvalidLine(2); got != "# !! Benchmark Stencil2D is invalid for 2 processes !!" {
		t.Errorf("invalid line %q", got)
	}
}

// TestRow: IMB-P2P's formulas (imb_p2p_pingpong.c, _pingping.c,
// _unirandom.c): 2 ranks, 10 iterations of 1000 B.
func TestRow(t *testing.T) {
	times, msgs := []float64{0.001, 0.002}, []float64{10, 11}
	for _, c := range []struct {
		name              string
		t, mbps, rateWant float64
	}{
		{"PingPong", 1e6 * 0.003 / 40, 20 * 1000 / (1e6 * 0.002), 20 / 0.002},
		{"PingPing", 1e6 * 0.003 / 20, 20 * 1000 / (1e6 * 0.002), 20 / 0.002},
		{"Unirandom", 1e6 * 0.003 / 10, 10 * 1000 / (1e6 * 0.002), 10 / 0.002}, // (10+11)/2 = 10 messages
	} {
		s, _ := Lookup(c.name)
		tu, mb, rate := s.Row(1000, 10, 2, times, msgs)
		if !near(tu, c.t) || !near(mb, c.mbps) || !near(rate, c.rateWant) {
			t.Errorf("%s: %g us %g MB/s %g msg/s, want %g %g %g", c.name, tu, mb, rate, c.t, c.mbps, c.rateWant)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9*b+1e-12 && b-a < 1e-9*b+1e-12 }

func TestIterations(t *testing.T) {
	o := DefaultOptions()
	for _, c := range []struct {
		max     int
		mib     int64
		size    int64
		n, warm int
	}{
		{100000, 800, 0, 100000, 10000},
		{100000, 800, 4 << 20, 200, 20},
		{100000, 800, 3, 100000, 10000},
		{50, 800, 8, 50, 5},
		{40, 1, 1 << 20, 1, 0}, // one iteration: no warm-up
		{40, 1, 400000, 3, 1},  // round(2.62) = 3, a tenth of it rounded up to 1
		{40, 1, 3 << 20, 1, 0}, // at least 1
		{100, 1, 699051, 1, 0}, // round(1.4999993) = 1
	} {
		o.IterMax, o.IterBytes = c.max, c.mib<<20
		n, w := o.Iterations(c.size)
		if n != c.n || w != c.warm {
			t.Errorf("-iter %d,%d size %d: %d and %d warm-up, want %d and %d", c.max, c.mib, c.size, n, w, c.n, c.warm)
		}
	}
}

// TestSizeFlags: -msglog and -msglen replace the list, -msgsz appends,
// in the order given, as IMB-P2P's do.
func TestSizeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []int64
	}{
		{nil, DefaultOptions().Sizes},
		{[]string{"-msglog", "2"}, []int64{0, 1, 2, 4}},
		{[]string{"-msglog", "2:4"}, []int64{4, 8, 16}},
		{[]string{"-msgsz", "8", "-msgsz", "1k"}, []int64{8, 1024}},
		{[]string{"-msglog", "1", "-msgsz", "1m"}, []int64{0, 1, 2, 1 << 20}},
		{[]string{"-msgsz", "3", "-msglog", "1"}, []int64{0, 1, 2}},
		{[]string{"-msgsz", "1g", "-msgsz", "2K"}, []int64{1 << 30, 2048}}, // IMB-P2P's g
	} {
		c2 := NewCommandLine()
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		c2.Register(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := c2.Finish(nil); err != nil || !reflect.DeepEqual(c2.Sizes, c.want) {
			t.Errorf("%v: sizes %v (%v), want %v", c.args, c2.Sizes, err, c.want)
		}
	}
}

func FuzzMsgLen(f *testing.F) {
	f.Add("# sizes\n8\n1k\n\n2m\n")
	f.Add("12x\n")
	f.Fuzz(func(t *testing.T, s string) {
		sizes, err := parseMsgLen(strings.NewReader(s), "f")
		if err == nil && len(sizes) == 0 {
			t.Errorf("no sizes and no error")
		}
		for _, v := range sizes {
			if v < 0 {
				t.Errorf("negative size %d", v)
			}
		}
	})
}
