package bench

import (
	"math"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "8": 8, "4k": 4096, "2M": 2 << 20, "2G": 2 << 30, " 16 ": 16} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "1.5", "k", "2T", "2000000000000", "2048G"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

// TestAssemble: three ranks reported; rank 1 did not time; rank 2 found
// wrong data. The row holds the timing ranks' means and samples scaled to
// µs, their min/max/mean, the largest repetition count, the locality of
// the timing ranks' hosts and the -check outcome naming the first failure.
func TestAssemble(t *testing.T) {
	vals := append(append(NewSlots(NSlots, 10), NewSlots(NSlots, 10)...), NewSlots(NSlots, 12)...)
	vals[0*NSlots+SlotTime] = 2e-6
	vals[2*NSlots+SlotTime] = 4e-6
	vals[2*NSlots+SlotBad], vals[2*NSlots+SlotFirstBad], vals[2*NSlots+SlotGot], vals[2*NSlots+SlotWant] = 3, 7, 1, 2
	samples := [][]float64{{1e-6, 3e-6}, nil, {4.00004e-6, 4e-6}}
	a := Assembly{Stride: NSlots, Hosts: []string{"a", "a", "b"}, Samples: samples, Scale: 1e6, Check: true,
		MeanUS: func(v []float64) float64 { return v[SlotTime] * 1e6 }}
	var r result.Result
	if n := a.Assemble(&r, vals, []int{0, 1, 2}); n != 2 {
		t.Fatalf("%d timing ranks, want 2", n)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if len(r.Ranks) != 2 || r.Ranks[0] != 0 || r.Ranks[1] != 2 || !near(r.TMinUS, 2) || !near(r.TMaxUS, 4) || !near(r.TAvgUS, 3) ||
		r.Repetitions != 12 || r.Status != result.StatusOK || r.Locality != result.InterNode || r.HostCount != 2 {
		t.Errorf("row %+v", r)
	}
	if r.SamplesUS[1][0] != 4 || r.SamplesUS[0][1] != 3 { // rounded to 4 decimals
		t.Errorf("samples %v", r.SamplesUS)
	}
	if r.Check == nil || r.Check.Passed || r.Check.Defects != 3 || r.Check.Detail != "rank 2: 3 wrong elements, first at element 7: got 1, want 2" {
		t.Errorf("check %+v", r.Check)
	}
	// The precision is the one -iter_policy precision decided on: from
	// the samples as measured, not as rounded for the record (at 0.2 µs a
	// sample, 0.1 ns of rounding moves it by ~1e-4).
	fine := make([]float64, 40)
	for i := range fine {
		fine[i] = (0.2 + 0.00004*float64(i%7)) * 1e-6
	}
	var pr result.Result
	(Assembly{Stride: NSlots, Samples: [][]float64{fine}, Scale: 1e6, MeanUS: a.MeanUS}).Assemble(&pr, vals[:NSlots], []int{0})
	if want := Precision([][]float64{fine}); pr.Precision == nil || *pr.Precision != *want ||
		*Precision(pr.SamplesUS) == *want {
		t.Errorf("precision %v, want %v from the unrounded samples (rounded: %v)", pr.Precision, *want, *Precision(pr.SamplesUS))
	}
	var none result.Result
	if n := (Assembly{Stride: NSlots, Samples: make([][]float64, 1), MeanUS: a.MeanUS}).Assemble(&none, NewSlots(NSlots, 5), []int{0}); n != 0 ||
		none.TMinUS != 0 || none.Check != nil {
		t.Errorf("no timing rank: %d, %+v", n, none)
	}
}

func TestPrecision(t *testing.T) {
	if Precision([][]float64{{1, 2, 3}}) != nil {
		t.Error("precision from 3 samples")
	}
	flat := make([]float64, 50)
	wide := make([]float64, 50)
	for i := range flat {
		flat[i], wide[i] = 10, 10+float64(i%10)
	}
	p := Precision([][]float64{flat, wide})
	if p == nil || *p <= 0 {
		t.Errorf("precision %v, want the wider rank's", p)
	}
}
