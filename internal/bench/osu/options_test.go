package osu

import (
	"flag"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func spec(t *testing.T, name string) *Spec {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no test %s", name)
	}
	return s
}

func TestSizesAndCounts(t *testing.T) {
	o := DefaultOptions()
	lat := spec(t, "latency")
	if got := o.Sizes(lat, 2); len(got) != 23 || got[0] != 1 || got[22] != 4<<20 {
		t.Errorf("latency sizes %v (OSU 7.2: 1 .. 4 MiB, 23 rows)", got)
	}
	ar := spec(t, "allreduce")
	if got := o.Sizes(ar, 2); len(got) != 21 || got[20] != 1<<20 {
		t.Errorf("allreduce sizes %v (1 .. 1 MiB)", got)
	}
	if got := o.Sizes(spec(t, "barrier"), 2); !reflect.DeepEqual(got, []int64{0}) {
		t.Errorf("barrier sizes %v", got)
	}
	if got := o.Sizes(spec(t, "fop_latency"), 2); !reflect.DeepEqual(got, []int64{8}) {
		t.Errorf("fop sizes %v", got)
	}
	o.MinSize, o.MaxSize = 3, 30
	if got := o.Sizes(lat, 2); !reflect.DeepEqual(got, []int64{3, 6, 12, 24}) {
		t.Errorf("-m 3:30 -> %v (OSU doubles from MIN)", got)
	}
	if got := o.SizesOfAll([]*Spec{lat, spec(t, "barrier"), spec(t, "bw")}, 2); !reflect.DeepEqual(got, []int64{3, 6, 12, 24, 0}) {
		t.Errorf("latency, barrier and bw at -m 3:30: %v, want each size once", got)
	}
	o = DefaultOptions()
	o.Type, o.MaxSize = kernel.Double, 32
	if got := o.Sizes(ar, 2); !reflect.DeepEqual(got, []int64{8, 16, 32}) {
		t.Errorf("-T mpi_double: %v (sizes below one element dropped)", got)
	}
	o = DefaultOptions()
	o.MemLimit = 1 << 20 // alltoall at np 4: 2 * 4 * size <= 1 MiB -> size <= 128 KiB
	if got := o.Sizes(spec(t, "alltoall"), 4); got[len(got)-1] != 128<<10 {
		t.Errorf("-M 1 MiB: largest alltoall size %d", got[len(got)-1])
	}
	o = DefaultOptions()
	cases := []struct {
		name       string
		size       int64
		iter, skip int
	}{
		{"latency", 8192, 10000, 100}, {"latency", 16384, 1000, 10},
		{"bw", 8, 100, 10}, {"bw", 1 << 20, 20, 2},
		{"allreduce", 8, 1000, 100}, {"allreduce", 1 << 20, 100, 10},
		{"put_latency", 8, 10000, 100}, {"put_bw", 1 << 20, 20, 2},
	}
	for _, c := range cases {
		i, k := o.Counts(spec(t, c.name), c.size)
		if i != c.iter || k != c.skip {
			t.Errorf("%s %d B: %d/%d, want %d/%d", c.name, c.size, i, k, c.iter, c.skip)
		}
	}
	three, zero := 3, 0
	o.Iter, o.Skip = 7, &three
	if i, k := o.Counts(lat, 1<<20); i != 7 || k != 3 {
		t.Errorf("-i 7 -x 3: %d/%d", i, k)
	}
	o.Skip = &zero // OSU's -x 0: no warm-up
	if _, k := o.Counts(lat, 8); k != 0 {
		t.Errorf("-x 0: %d warm-up iterations", k)
	}
}

func TestOptionsCheck(t *testing.T) {
	bad := []struct {
		test string
		mod  func(*Options)
	}{
		{"latency", func(o *Options) { o.InPlace = true }},
		{"allreduce", func(o *Options) { o.InPlace, o.Validate = true, true }},
		{"allreduce", func(o *Options) { o.RootRotate = true }},
		{"put_bibw", func(o *Options) { o.Sync, o.SyncSet = kernel.SyncLock, true }},
		{"latency", func(o *Options) { o.Sync, o.SyncSet = kernel.SyncLock, true }},
		{"allreduce", func(o *Options) { o.Device = "cuda" }},
		{"latency", func(o *Options) { o.Device = "rocm" }},
		{"bw", func(o *Options) { o.Window = 0 }},
		{"latency", func(o *Options) { o.MinSize, o.MaxSize = 8, 4 }},
		// one MPI call of an int count: OSU's tests stop at INT_MAX elements
		{"latency", func(o *Options) { o.MaxSize = 1 << 31 }},
		// a persistent request's root and buffers are fixed
		{"allreduce_persistent", func(o *Options) { o.InPlace = true }},
		{"bcast_persistent", func(o *Options) { o.RootRotate = true }},
		{"bcast_persistent", func(o *Options) { o.Root = 1 }},
	}
	for i, b := range bad {
		o := DefaultOptions()
		b.mod(&o)
		if err := o.Check(spec(t, b.test)); err == nil {
			t.Errorf("case %d (%s) accepted", i, b.test)
		}
	}
	o := DefaultOptions()
	if err := o.Check(spec(t, "put_latency")); err != nil {
		t.Errorf("defaults: %v", err)
	}
	o.MaxSize = 1<<31 - 1
	if err := o.Check(spec(t, "latency")); err != nil {
		t.Errorf("-m 2147483647: %v", err)
	}
	for _, w := range []string{"create", "allocate", "dynamic"} {
		if _, err := ParseWin(w); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseType("mpi_long"); err == nil {
		t.Error("-T mpi_long accepted")
	}
}

func TestRegistry(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Specs() {
		if names[s.Name] || s.Title == "" || s.Summary == "" || !s.Job.Kernel.Valid() && s.Kind != Startup {
			t.Errorf("spec %+v", s)
		}
		names[s.Name] = true
		if (s.Kind == RMALatency || s.Kind == RMABandwidth) && (len(s.SyncModes) == 0 || !hasSync(s.SyncModes, s.Sync)) {
			t.Errorf("%s: default sync not among its modes", s.Name)
		}
	}
	if len(names) != 77 {
		t.Errorf("%d tests, want 77 (7 pt2pt with latency_mt and latency_mp, 3 persistent pt2pt, 2 fan, 9 one-sided, 15 collectives, 13 persistent collectives, 15 non-blocking, 10 neighbourhood, oneway, init, hello)", len(names))
	}
	for _, n := range []string{"latency", "bw", "bibw", "allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier",
		"bcast", "gather", "gatherv", "reduce", "reduce_scatter", "scatter", "scatterv"} {
		p, _ := Lookup(n + "_persistent")
		s, _ := Lookup(n)
		if p == nil || !p.Job.Persist || p.Job.Kernel != s.Job.Kernel || p.Kind != s.Kind || p.BWFactor != s.BWFactor ||
			p.Rooted != s.Rooted || p.Reduction != s.Reduction || p.NoSize != s.NoSize || p.MaxLog != s.MaxLog ||
			p.Title != strings.Replace(s.Title, " Latency Test", " Persistent Latency Test", 1) && p.Kind == Collective {
			t.Errorf("%s_persistent is not %s with persistent requests: %+v", n, n, p)
		}
	}
	if s, ok := Lookup("osu_latency"); !ok || s.Name != "latency" {
		t.Error("osu_ prefix not accepted")
	}
}

// TestCheckWorld: what keeps a test from running on so many processes.
func TestCheckWorld(t *testing.T) {
	for _, c := range []struct {
		test  string
		world int
		root  int
		want  string // "" for none
	}{
		{"latency", 2, 0, ""},
		{"latency", 3, 0, "needs exactly 2 processes"},
		{"allreduce", 1, 0, "needs at least 2 processes"},
		{"multi_lat", 3, 0, "needs an even number"},
		{"bcast", 4, 3, ""},
		{"bcast", 4, 4, "no such rank"},
	} {
		o := DefaultOptions()
		o.Root = c.root
		err := o.CheckWorld(spec(t, c.test), c.world)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s on %d (root %d): %v, want %q", c.test, c.world, c.root, err, c.want)
		}
	}
	o := DefaultOptions()
	o.MemLimit = 1 // -M: no buffer fits
	if err := o.CheckWorld(spec(t, "latency"), 2); err == nil || !strings.Contains(err.Error(), "no message size left") {
		t.Errorf("no sizes: %v", err)
	}
}

// Every test's traits are registered with it: one reference ping-pong,
// the bandwidth kinds led by MB/s, OSU's program name as the label, a
// cost model for every blocking collective but the neighbourhood ones
// (their cost is the graph's, which the traits do not know), ibarrier,
// and multi_lat (its pairs at once, each a message's time).
func TestTraits(t *testing.T) {
	refs := 0
	for _, s := range Specs() {
		tr, ok := bench.TraitsOf(Suite, s.Name)
		if !ok || tr.Label != "osu_"+s.Name {
			t.Errorf("%s: traits %+v, %v", s.Name, tr, ok)
			continue
		}
		if tr.Reference {
			refs++
		}
		bw := s.Kind == Bandwidth || s.Kind == MsgRate || s.Kind == RMABandwidth
		if (tr.Lead == bench.LeadBandwidth) != bw || tr.Latency != (s.Kind == Latency) || tr.Rooted != s.Rooted || tr.Sizeless != s.NoSize {
			t.Errorf("%s: traits %+v for kind %d", s.Name, tr, s.Kind)
		}
		if wantCost := s.Kind == Collective && !s.Neighbour() || s.Name == "ibarrier" || s.Name == "multi_lat"; (tr.Cost != nil) != wantCost {
			t.Errorf("%s: cost model %v, want one: %v", s.Name, tr.Cost != nil, wantCost)
		}
	}
	if refs != 1 {
		t.Errorf("%d reference tests, want 1", refs)
	}
}

// TestThreadsFlag: -t is osu_latency_mt's [SEND:]RECV threads and
// osu_latency_mp's processes, as OSU reads them, and the non-blocking
// tests' MPI_Test calls.
func TestThreadsFlag(t *testing.T) {
	mt, _ := Lookup("latency_mt")
	nb, _ := Lookup("ialltoall")
	mp, _ := Lookup("latency_mp")
	cases := []struct {
		spec             *Spec
		arg              string
		send, recv, test int
		perIter          bool
		err              string
	}{
		{mt, "", 1, 2, 0, false, ""},
		{mt, "4", 1, 4, 0, false, ""},
		{mt, "1:3", 1, 3, 0, false, ""},
		{mt, "3:5", 3, 5, 0, true, ""},
		{mt, "127:1", 127, 1, 0, true, ""},
		{mt, "0", 0, 0, 0, false, "each 1 to 127"},
		{mt, "128", 0, 0, 0, false, "each 1 to 127"},
		{mt, "2:", 0, 0, 0, false, "want RECV or SEND:RECV"},
		{mt, "x:2", 0, 0, 0, false, "want RECV or SEND:RECV"},
		{nb, "10", 0, 0, 10, false, ""},
		// osu_latency_mp's processes: RECV alone leaves the sender none
		{mp, "", 2, 2, 0, false, ""},
		{mp, "3", 0, 3, 0, false, ""},
		{mp, "1:4", 1, 4, 0, false, ""},
		{mp, "0:4", 0, 0, 0, false, "processes, each 1 to 127"},
		{nb, "1:2", 0, 0, 0, false, "want a number of MPI_Test calls"},
	}
	for _, c := range cases {
		o := DefaultOptions()
		o.tArg = c.arg
		err := o.Check(c.spec)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s -t %q: error %v, want %q", c.spec.Name, c.arg, err, c.err)
			}
			continue
		}
		send, recv := o.SendThreads, o.RecvThreads
		if c.spec.Processes {
			send, recv = o.SendProcs, o.RecvProcs
		}
		if err != nil || send != c.send || recv != c.recv || o.NTest != c.test || o.TagPerIter() != c.perIter {
			t.Errorf("%s -t %q: %d:%d, %d tests, tag per iteration %v, err %v", c.spec.Name, c.arg,
				send, recv, o.NTest, o.TagPerIter(), err)
		}
	}
}

// TestZFlag: -z alone is P50, P90, P99 (OSU 7.3); -z=LIST is OSU 7.4's
// list, at most five percentiles 0 to 100.
func TestZFlag(t *testing.T) {
	cases := []struct {
		args []string
		want []int
		err  string
	}{
		{nil, nil, ""},
		{[]string{"-z"}, []int{50, 90, 99}, ""},
		{[]string{"-z=25,75"}, []int{25, 75}, ""},
		{[]string{"-z=0,100"}, []int{0, 100}, ""},
		{[]string{"-z=1,2,3,4,5"}, []int{1, 2, 3, 4, 5}, ""},
		{[]string{"-z=1,2,3,4,5,6"}, nil, "at most 5 percentiles"},
		{[]string{"-z=101"}, nil, "0 to 100"},
		{[]string{"-z=a"}, nil, "0 to 100"},
		{[]string{"-z=50,95,99.9"}, nil, "whole percentiles"},
	}
	for _, c := range cases {
		o := DefaultOptions()
		fs := flag.NewFlagSet("osu", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Register(fs)
		err := fs.Parse(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(o.TailList(), c.want) {
			t.Errorf("%v: %v, err %v; want %v", c.args, o.TailList(), err, c.want)
		}
	}
}
