package imb

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

func TestSizeList(t *testing.T) {
	t.Parallel()
	def := DefaultOptions()
	noZero := DefaultOptions()
	noZero.ZeroSize = false
	small := DefaultOptions()
	small.MsgLogMin, small.MsgLogMax = 3, 5
	user := DefaultOptions()
	user.Sizes = []int64{0, 3, 1 << 23, 100}
	tests := []struct {
		name string
		o    Options
		unit int64
		want []int64
	}{
		// IMB default: 0, 1, 2, 4, ..., 4 MiB (24 rows).
		{"default bytes", def, 1, append([]int64{0}, pow2(0, 22)...)},
		// Reductions: 1 and 2 round up to 4 and collapse (23 rows).
		{"default floats", def, 4, append([]int64{0}, pow2(2, 22)...)},
		{"zero_size off", noZero, 1, pow2(0, 22)},
		{"msglog 3:5", small, 1, []int64{0, 8, 16, 32}},
		// User list: rounded up to the unit, capped at 2^22 rounded down.
		{"msglen doubles", user, 8, []int64{0, 8, 4194304, 104}},
	}
	for _, tt := range tests {
		if got := tt.o.SizeList(tt.unit); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if n := len(def.SizeList(1)); n != 24 {
		t.Errorf("default sweep has %d sizes, IMB prints 24", n)
	}
}

// TestEXTSizeList: IMB-EXT's sweep starts at one assign_type at most and
// doubles from there (IMB_2018.c under #ifdef EXT); with the default
// -msglog it is IMB-MPI1's.
func TestEXTSizeList(t *testing.T) {
	def := DefaultOptions()
	small := DefaultOptions()
	small.MsgLogMin, small.MsgLogMax = 3, 6
	user := DefaultOptions()
	user.Sizes = []int64{0, 3, 100}
	for _, tt := range []struct {
		name string
		o    Options
		unit int64
		want []int64
	}{
		{"msglog 3:6 bytes", small, 1, []int64{0, 4, 8, 16, 32, 64}},
		{"msglog 3:6 floats", small, 4, []int64{0, 4, 8, 16, 32, 64}},
		{"msglog 3:6 doubles", small, 8, []int64{0, 8, 16, 32, 64}},
		{"default bytes", def, 1, def.SizeList(1)},
		{"default floats", def, 4, def.SizeList(4)},
		{"msglen", user, 4, user.SizeList(4)},
	} {
		if got := tt.o.extSizeList(tt.unit); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTimeLimit(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	// -msglog 0:22 -> 22 sizes for the budget -> 21 * 10 s.
	if got := o.TimeLimit(); got != 210 {
		t.Errorf("default limit %g, want 210", got)
	}
	o.TimeS = 0.001
	o.Sizes = []int64{1, 2, 3}
	// 3 listed sizes -> 2 * 0.001 s.
	if got := o.TimeLimit(); got != 0.002 {
		t.Errorf("list limit %g, want 0.002", got)
	}
}

func TestInitialReps(t *testing.T) {
	t.Parallel()
	coll := &Spec{Family: Collective}
	rooted := &Spec{Family: Collective, Rooted: true}
	sync := &Spec{Family: Sync}
	def := DefaultOptions()
	off := DefaultOptions()
	off.Policy, off.MsgsPerSample, off.MsgsNonAggr = PolicyOff, 100, 50
	mnp := DefaultOptions()
	mnp.Policy = PolicyMultipleNP
	auto := DefaultOptions()
	auto.Policy = PolicyAuto
	tests := []struct {
		name    string
		o       Options
		mode    string
		s       *Spec
		size    int64
		np      int
		n       int
		dynamic bool
	}{
		{"size 0", def, "", coll, 0, 2, 1000, true},
		// 40 MiB volume cap: 64 KiB -> 640, 1 MiB -> 40, 4 MiB -> 10.
		{"64KiB", def, "", coll, 65536, 2, 640, true},
		{"1MiB", def, "", coll, 1 << 20, 2, 40, true},
		{"4MiB", def, "", coll, 4 << 20, 2, 10, true},
		{"barrier ignores volume", def, "", sync, 0, 2, 1000, true},
		{"off", off, "", coll, 4 << 20, 2, 100, false},
		// multiple_np: round(1000*2^22/(np*size+2^22)) down to a multiple of np.
		// np 4, size 1 MiB: 1000*4194304/(4194304+4194304) = 500 -> 500.
		{"multiple_np 1MiB np4", mnp, "", coll, 1 << 20, 4, 500, false},
		// np 3, size 4: 1000*4194304/(12+4194304)+0.5 = 1000.4 -> 1000 -> 999.
		{"multiple_np small np3", mnp, "", coll, 4, 3, 999, false},
		// np 4, 4 MiB: 1000/5 = 200.
		{"multiple_np 4MiB np4", mnp, "", coll, 4 << 20, 4, 200, false},
		{"auto rooted", auto, "", rooted, 1 << 20, 4, 500, false},
		{"auto unrooted", auto, "", coll, 1 << 20, 4, 40, true},
		// IMB-EXT and IMB-RMA: the non-aggregate mode counts from msgs_nonaggr,
		// except under -iter_policy off (msgspersample, as IMB)
		{"non-aggregate", def, result.ModeNonAggregate, coll, 0, 2, 100, true},
		{"non-aggregate 1MiB", def, result.ModeNonAggregate, coll, 1 << 20, 2, 40, true},
		{"non-aggregate off", off, result.ModeNonAggregate, coll, 0, 2, 100, false},
		{"aggregate", def, result.ModeAggregate, coll, 0, 2, 1000, true},
	}
	for _, tt := range tests {
		n, dyn := tt.o.InitialRepsIn(tt.mode, tt.s, tt.size, tt.np)
		if n != tt.n || dyn != tt.dynamic {
			t.Errorf("%s: got (%d, %v), want (%d, %v)", tt.name, n, dyn, tt.n, tt.dynamic)
		}
	}
}

func TestDynamicSteps(t *testing.T) {
	t.Parallel()
	rough := []struct {
		t    float64
		want int
	}{
		{1e-6, 1000}, {0.0009999, 1000}, {0.002, 500}, {0.3, 3}, {0.7, 1}, {1.5, 1},
	}
	for _, c := range rough {
		if got := RoughReps(c.t); got != c.want {
			t.Errorf("RoughReps(%g) = %d, want %d", c.t, got, c.want)
		}
	}
	// IMB's -time 0.001 sample: PingPong round trip 1.57 us -> 1+0.001/1.57e-6 = 637.9 -> 637.
	if got := TimeReps(1.57e-6, 0.001, 1000); got != 637 {
		t.Errorf("TimeReps = %d, want 637", got)
	}
	if got := TimeReps(1e-9, 10, 1000); got != 1000 {
		t.Errorf("TimeReps below 10 ns = %d, want the selected 1000", got)
	}
	// -msglen order 1024, 8, 65536: for 8 (smaller than 1024) never fewer
	// than 1024 got; for 65536 never more than any smaller one.
	if got := ListReps([]int64{1024}, []int{300}, 8, 100); got != 300 {
		t.Errorf("ListReps smaller size = %d, want 300", got)
	}
	if got := ListReps([]int64{1024, 8}, []int{300, 300}, 65536, 900); got != 300 {
		t.Errorf("ListReps larger size = %d, want 300", got)
	}
	for n, want := range map[int]int{1: 1, 5: 5, 10: 10, 50: 10, 1000: 100} {
		if got := WarmupReps(n); got != want {
			t.Errorf("WarmupReps(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestLayout(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	s := &Spec{Family: Collective, Buffers: SameBuffers}
	if l := o.Layout(s, 1000, 2, 1000); l.SendAlloc != 1000 || l.SendIter != 1 {
		t.Errorf("no off_cache: %+v", l)
	}
	o.OffCache, o.CacheMB, o.CacheLine = true, 1, 64
	// stride = (ceil(1000/64)+1)*64 = 17*64 = 1088; copies = min(1000, ceil(2 MiB/1088)) = 1000.
	l := o.Layout(s, 1000, 2, 1000)
	if l.SendOffs != 1088 || l.SendIter != 1000 || l.SendAlloc != 1088000 {
		t.Errorf("off_cache 1 MB: %+v", l)
	}
	// 1 MiB messages: stride 1048640, copies ceil(2097152/1048640) = 2.
	l = o.Layout(s, 1<<20, 2, 40)
	if l.SendIter != 2 || l.RecvAlloc != 2*1048640 {
		t.Errorf("off_cache 1 MiB message: %+v", l)
	}
	if got := (Layout{SendAlloc: 1 << 29, RecvAlloc: 1 << 29}).NeededGB(); got != 1 {
		t.Errorf("NeededGB = %g, want 1", got)
	}
}

func TestNPSequence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		npmin, world int
		want         []int
	}{
		{2, 4, []int{2, 4}},
		{2, 6, []int{2, 4, 6}},
		{3, 4, []int{3, 4}},
		{4, 4, []int{4}},
		{2, 1, []int{1}},
		{1, 8, []int{1, 2, 4, 8}},
	}
	for _, tt := range tests {
		if got := NPSequence(tt.npmin, tt.world); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("NPSequence(%d, %d) = %v, want %v", tt.npmin, tt.world, got, tt.want)
		}
	}
}

func TestMapKey(t *testing.T) {
	t.Parallel()
	// -map 2x2 on 4 ranks: keys (2r) mod 3, 0 -> r: 0, 2, 1, 3.
	var got []int
	for r := 0; r < 4; r++ {
		got = append(got, MapKey(r, 2, 2))
	}
	if want := []int{0, 2, 1, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("MapKey 2x2 = %v, want %v", got, want)
	}
	if MapKey(5, 0, 0) != 5 || MapKey(5, 1, 8) != 5 {
		t.Error("MapKey without a grid must be the rank")
	}
}

func TestParseMsgLen(t *testing.T) {
	t.Parallel()
	in := "# sizes\n0\n8\n\n  4k\n1M\n# end\n"
	got, err := ParseMsgLen(strings.NewReader(in), "sizes.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 8, 4096, 1 << 20}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	bad := []struct{ in, want string }{
		{"8\nabc\n", "sizes.txt:2:"},
		{"1\n2\n-5\n", "sizes.txt:3:"},
		{"1.5\n", "sizes.txt:1:"},
		{"# only comments\n", "no message lengths"},
		{"99999999999999999m\n", "sizes.txt:1:"},
	}
	for _, b := range bad {
		_, err := ParseMsgLen(strings.NewReader(b.in), "sizes.txt")
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseMsgLen(%q) error %v, want it to mention %q", b.in, err, b.want)
		}
	}
}

func TestParseMsgSizeAndLog(t *testing.T) {
	t.Parallel()
	if got, err := ParseMsgSize("0,1k,2M"); err != nil || !reflect.DeepEqual(got, []int64{0, 1024, 2 << 20}) {
		t.Errorf("ParseMsgSize = %v, %v", got, err)
	}
	for _, bad := range []string{"", "1,,2", "x", "1,-2"} {
		if _, err := ParseMsgSize(bad); err == nil {
			t.Errorf("ParseMsgSize(%q) accepted", bad)
		}
	}
	logs := []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"0:22", 0, 22, true}, {"10", 0, 10, true}, {"3:5", 3, 5, true},
		{"5:3", 0, 0, false}, {"0:31", 0, 31, true}, {"31:34", 31, 34, true}, {"0:35", 0, 0, false}, {"a:b", 0, 0, false}, {"-1:4", 0, 0, false},
	}
	for _, l := range logs {
		lo, hi, err := ParseMsgLog(l.in)
		if (err == nil) != l.ok || (l.ok && (lo != l.lo || hi != l.hi)) {
			t.Errorf("ParseMsgLog(%q) = %d, %d, %v", l.in, lo, hi, err)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	mut := []func(*Options){
		func(o *Options) { o.NPMin = 0 },
		func(o *Options) { o.Multi = 2 },
		func(o *Options) { o.TimeS = 0 },
		func(o *Options) { o.MemGB = -1 },
		func(o *Options) { o.MsgLogMax = MaxMsgLog + 1 },
		func(o *Options) { o.Window = 0 },
		func(o *Options) { o.MapP = 2 },
		func(o *Options) { o.MsgsPerSample = 0 },
	}
	for i, m := range mut {
		o := DefaultOptions()
		m(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("mutation %d accepted: %+v", i, o)
		}
	}
	o = DefaultOptions()
	o.NPMin = 8
	if err := o.ValidateWorld(4); err == nil {
		t.Error("npmin 8 on 4 ranks accepted")
	}
}

func TestPolicyText(t *testing.T) {
	t.Parallel()
	for _, p := range []Policy{PolicyDynamic, PolicyOff, PolicyMultipleNP, PolicyAuto} {
		b, _ := p.MarshalText()
		var q Policy
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Errorf("policy %v round trip: %v %v", p, q, err)
		}
	}
	if _, err := ParsePolicy("sometimes"); err == nil {
		t.Error("unknown policy accepted")
	}
}

func TestSpecValid(t *testing.T) {
	t.Parallel()
	pp := &Spec{Family: SingleTransfer}
	for np, want := range map[int][2]bool{1: {false, false}, 2: {true, false}, 4: {false, true}} {
		ok, skip := pp.Valid(np)
		if ok != want[0] || skip != want[1] {
			t.Errorf("PingPong-like at %d: ok %v skip %v", np, ok, skip)
		}
	}
	if ok, _ := (&Spec{Family: Collective}).Valid(1); !ok {
		t.Error("collective invalid at 1 process")
	}
	o := DefaultOptions()
	o.RedType = kernel.Double
	if o.Unit(&Spec{Reduction: true}) != 8 || o.Unit(&Spec{}) != 1 {
		t.Error("Unit ignores the data types")
	}
}

func pow2(lo, hi int) []int64 {
	var out []int64
	for k := lo; k <= hi; k++ {
		out = append(out, int64(1)<<k)
	}
	return out
}

func FuzzParseMsgLen(f *testing.F) {
	f.Add("0\n1\n2k\n# c\n4M\n")
	f.Add("abc")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		sizes, err := ParseMsgLen(strings.NewReader(in), "fuzz")
		if err == nil {
			for _, s := range sizes {
				if s < 0 {
					t.Fatalf("negative size %d from %q", s, in)
				}
			}
		}
	})
}

func FuzzParseMsgSize(f *testing.F) {
	f.Add("0,1k,2M")
	f.Add(",")
	f.Fuzz(func(t *testing.T, in string) {
		sizes, err := ParseMsgSize(in)
		if err == nil && len(sizes) == 0 {
			t.Fatalf("no sizes and no error from %q", in)
		}
	})
}
