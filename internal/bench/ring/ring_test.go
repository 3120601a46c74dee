package ring

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestGBpsAndSample(t *testing.T) {
	// 1 MB each way in 1 ms: 2e6 bytes / 1e-3 s = 2e9 B/s = 2 GB/s.
	if got := GBps(1_000_000, 1e-3); math.Abs(got-2) > 1e-12 {
		t.Errorf("GBps = %g, want 2", got)
	}
	s := NewSample(3, 1_000_000, []float64{1e-3, 4e-3, 2e-3}, time.Unix(0, 0))
	// slowest: rank 1 (4 ms -> 0.5 GB/s); fastest 1 ms -> 2 GB/s; mean of 2, 0.5, 1.
	if s.Slowest != 1 || s.MaxS != 4e-3 || s.MinS != 1e-3 || math.Abs(s.MinGBps-0.5) > 1e-12 ||
		math.Abs(s.MaxGBps-2) > 1e-12 || math.Abs(s.AvgGBps-3.5/3) > 1e-12 || s.Cold {
		t.Errorf("sample %+v", s)
	}
}

func TestTrackerSummary(t *testing.T) {
	tr := NewTracker(1_000_000)
	tr.Add(NewSample(0, 1_000_000, []float64{9e-3, 9e-3}, time.Time{})) // cold, kept apart
	// 10 warm samples: rank 1 slowest in 7; slowest durations 1..10 ms.
	for i := 1; i <= 10; i++ {
		d := float64(i) * 1e-3
		dur := []float64{d, d / 2}
		if i <= 7 {
			dur = []float64{d / 2, d}
		}
		tr.Add(NewSample(i, 1_000_000, dur, time.Time{}))
	}
	sum := tr.Summary([]string{"a", "b"})
	// median of 1..10 ms = 5.5 ms; p99: h = 0.99*9 = 8.91 -> 9 + 0.91 = 9.91 ms.
	if sum.Samples != 10 || math.Abs(float64(sum.MedianS)-5.5e-3) > 1e-15 || math.Abs(float64(sum.P99S)-9.91e-3) > 1e-15 || sum.ColdS != 9e-3 {
		t.Errorf("summary %+v", sum)
	}
	if sum.Straggler != 1 || sum.StragglerHost != "b" || sum.StragglerCount != 7 || sum.Expected != 5 {
		t.Errorf("straggler %+v", sum)
	}
	// bandwidth at the median: 2e6 / 5.5e-3 / 1e9
	if math.Abs(float64(sum.MedianGBps)-2e6/5.5e-3/1e9) > 1e-12 {
		t.Errorf("median bandwidth %g", sum.MedianGBps)
	}
	empty := NewTracker(1).Summary(nil)
	if empty.Samples != 0 || empty.Straggler != -1 || !math.IsNaN(float64(empty.MedianS)) {
		t.Errorf("empty summary %+v", empty)
	}
	// an end record holds the summary: without samples, its medians are null
	js, err := json.Marshal(empty)
	if err != nil || !strings.Contains(string(js), `"median_s":null`) {
		t.Errorf("empty summary as JSON: %s, %v", js, err)
	}
}
