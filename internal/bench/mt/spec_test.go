package mt

import (
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

func TestRegistry(t *testing.T) {
	want := []string{"PingPongMT", "PingPingMT", "SendRecvMT", "ExchangeMT", "UniBandMT", "BiBandMT", "BarrierMT",
		"BcastMT", "ReduceMT", "AllReduceMT"} // IMB-MT 2021.11's, in its order
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("list %v, want %v", got, want)
	}
	for _, n := range want {
		s, ok := Lookup(strings.ToLower(n))
		if !ok || s.Name != n {
			t.Fatalf("Lookup(%q)", n)
		}
		if s.Separate != (s.Format == Collective || s.Format == Sync) {
			t.Errorf("%s: separate timing %v for format %d", n, s.Separate, s.Format)
		}
	}
	o := DefaultOptions()
	if b, _ := Lookup("BarrierMT"); !reflect.DeepEqual(o.CountsOf(b), []int{0}) {
		t.Errorf("BarrierMT counts %v", o.CountsOf(b))
	}
}

// TestRow: IMB-MT's run(): the times over threads and ranks divided by
// the repetitions and the benchmark's divider; bandwidth over the largest
// time, the bands' over all pairs and their rate over the mean.
func TestRow(t *testing.T) {
	// 2 ranks x 2 threads, 100 repetitions, times 0.001..0.002 s
	const tMin, tMax, tSum, results, threads, repeat, window = 0.001, 0.002, 0.006, 4, 2, 100, 64
	bytes := int64(32)
	for _, c := range []struct {
		name                   string
		min, max, avg, mb, msg float64
	}{
		{"PingPongMT", 5, 10, 7.5, 32 * 1 / 10e-6 / 1e6, 0},
		{"SendRecvMT", 10, 20, 15, 32 * 2 / 20e-6 / 1e6, 0},
		{"UniBandMT", 1e6 * 0.001 / 6400, 1e6 * 0.002 / 6400, 1e6 * 0.0015 / 6400,
			32.0 / 2 * 2 / (0.002 / 6400) / 1e6, 8533333},
		{"AllReduceMT", 10, 20, 15, 0, 0},
	} {
		s, _ := Lookup(c.name)
		mn, mx, avg, mb, msg := s.Row(tMin, tMax, tSum, results, threads, repeat, window, bytes)
		for i, pair := range [][2]float64{{mn, c.min}, {mx, c.max}, {avg, c.avg}, {mb, c.mb}, {msg, c.msg}} {
			if d := pair[0] - pair[1]; d > 1e-9*max(1, pair[1]) || d < -1e-9*max(1, pair[1]) {
				t.Errorf("%s value %d: %g, want %g", c.name, i, pair[0], pair[1])
			}
		}
	}
}

func TestFinish(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
		algo kernel.MTMalloc
	}{
		{[]string{"-thread_level", "multiple", "-malloc_algo", "parallel"}, "", kernel.MTMallocParallel},
		{[]string{"-malloc_algo", "continuous"}, "", kernel.MTMallocSerial}, // one thread: serial, as IMB-MT
		{[]string{"-check", "on", "-datatype", "char"}, "only the int data type", 0},
		{[]string{"-window_size", "0"}, "-window_size", 0},
	} {
		cl := NewCommandLine()
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		cl.Register(fs)
		err := fs.Parse(c.args)
		if err == nil {
			err = cl.Finish(nil)
		}
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: %v, want %q", c.args, err, c.err)
		}
		if err == nil && cl.MallocAlgo != c.algo {
			t.Errorf("%v: malloc algo %d, want %d", c.args, cl.MallocAlgo, c.algo)
		}
	}
}

// TestCheckThreads: OMP_NUM_THREADS as -thread_level multiple takes it.
func TestCheckThreads(t *testing.T) {
	for _, c := range []struct {
		env string
		ok  bool
	}{{"", true}, {"1", true}, {"4", true}, {"4,2", true}, {" 8 ", true}, {"1024", true},
		{"abc", false}, {"0", false}, {"-2", false}, {"1025", false}, {"100000", false}, {"2.5", false}, {",4", false}} {
		if err := checkThreads(c.env); (err == nil) != c.ok {
			t.Errorf("checkThreads(%q) = %v", c.env, err)
		}
	}
}

// TestUnpaired: a pair benchmark at a stride with no partner is refused;
// the default stride pairs any np of 2 or more.
func TestUnpaired(t *testing.T) {
	pp, _ := Lookup("PingPongMT")
	sr, _ := Lookup("SendRecvMT")
	for _, c := range []struct {
		spec       *Spec
		stride, np int
		want       bool
	}{{pp, 0, 2, false}, {pp, 0, 1, true}, {pp, 3, 2, true}, {pp, 1, 3, false}, {pp, 2, 4, false}, {pp, 3, 4, true}, {sr, 3, 2, false}} {
		if got := c.spec.Unpaired(&Options{Stride: c.stride}, c.np); got != c.want {
			t.Errorf("%s stride %d np %d: %v", c.spec.Name, c.stride, c.np, got)
		}
	}
}
