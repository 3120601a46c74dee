package osurun

import (
	"reflect"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/result"
)

// TestTails: OSU 7.4's tail columns: sorted per-iteration values indexed
// n*p/100 - 1; latency from the first timing rank, the ranks' mean for
// collectives, MB/s for bandwidth.
func TestTails(t *testing.T) {
	lat, _ := osu.Lookup("latency")
	coll, _ := osu.Lookup("allreduce")
	bw, _ := osu.Lookup("bw")
	ten := []float64{10e-6, 1e-6, 9e-6, 2e-6, 8e-6, 3e-6, 7e-6, 4e-6, 6e-6, 5e-6} // 1..10 µs, shuffled
	cases := []struct {
		name    string
		spec    *osu.Spec
		list    []int
		samples [][]float64
		timing  []int
		sc      float64
		want    []result.Tail
	}{
		// latency: half the round trip; 10 values: P50 is the 5th, P0 the
		// first (OSU would index -1), P100 the last
		{"latency", lat, []int{0, 50, 90, 100}, [][]float64{ten, nil}, []int{0}, 0.5e6,
			[]result.Tail{{P: 0, Value: 0.5}, {P: 50, Value: 2.5}, {P: 90, Value: 4.5}, {P: 100, Value: 5}}},
		// allreduce: iteration i's mean over the ranks
		{"collective", coll, nil, [][]float64{{1e-6, 3e-6}, {3e-6, 5e-6}}, []int{0, 1}, 1e6,
			[]result.Tail{{P: 50, Value: 2}, {P: 90, Value: 2}, {P: 99, Value: 2}}},
		// bw: 1 KiB x 64 a window, per-iteration MB/s sorted ascending
		{"bandwidth", bw, []int{50}, [][]float64{{65.536e-6, 32.768e-6, 131.072e-6, 16.384e-6}}, []int{0}, 1e6,
			[]result.Tail{{P: 50, Value: 1000}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := osu.DefaultOptions()
			o.Percentiles, o.PercentileList = true, c.list
			tab := &osu.Table{Spec: c.spec, Opt: &o, NP: len(c.samples)}
			if got := tails(tab, perIteration(tab, 1024, c.samples, c.timing, c.sc)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	o := osu.DefaultOptions()
	if got := tails(&osu.Table{Spec: lat, Opt: &o}, perIteration(&osu.Table{Spec: lat, Opt: &o}, 1, [][]float64{ten}, []int{0}, 1)); got != nil {
		t.Errorf("without -z: %v", got)
	}
}
