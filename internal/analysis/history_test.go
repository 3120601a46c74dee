package analysis

import (
	"math"
	"testing"
	"time"
)

// TestParseTrack: tracks read as written, every default one round trips,
// bad ones are refused.
func TestParseTrack(t *testing.T) {
	for in, want := range map[string]Track{
		"PingPong":                   {"PingPong", 0, TAvg},
		"PingPong@8":                 {"PingPong", 8, TAvg},
		"PingPong@4m:mbytes_per_sec": {"PingPong", 4 << 20, BW},
		"Allreduce@64k:t_max_us":     {"Allreduce", 64 << 10, TMax},
	} {
		if got, err := ParseTrack(in); err != nil || got != want {
			t.Errorf("ParseTrack(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, tr := range DefaultTracks {
		if back, err := ParseTrack(tr.String()); err != nil || back != tr {
			t.Errorf("%+v writes %q, which reads back as %+v, %v", tr, tr.String(), back, err)
		}
	}
	for _, bad := range []string{"", "@8", "PingPong@x", "PingPong@8:speed", "PingPong@8:link_efficiency", "PingPong@", "PingPong:", "PingPong@ :t_avg_us"} {
		if _, err := ParseTrack(bad); err == nil {
			t.Errorf("ParseTrack(%q) accepted", bad)
		}
	}
}

// TestHistoryMark: the band is the reference's median +- the larger of
// the tolerance and 3x its spread; a time above it or a bandwidth below
// it is beyond; without reference values there is no band.
func TestHistoryMark(t *testing.T) {
	pts := func(vs ...float64) []HistoryPoint {
		var out []HistoryPoint
		for i, v := range vs {
			out = append(out, HistoryPoint{Run: int64(i + 1), Time: time.Unix(int64(i)*86400, 0), Value: v})
		}
		return out
	}
	tol := Tolerance{Band: -1, Rel: 0.05}
	s := HistorySeries{Track: Track{"PingPong", 8, TAvg}, Points: pts(1, 1, 1, 1.04, 1.06, 0.5)}
	s.Mark([]float64{1, 1, 1}, tol)
	if s.Base != 1 || s.Allowed != 0.05 || s.Lo != 0.95 || s.Hi != 1.05 {
		t.Errorf("band %v %v [%v, %v]", s.Base, s.Allowed, s.Lo, s.Hi)
	}
	for i, want := range []bool{false, false, false, false, true, false} { // faster is never beyond
		if s.Points[i].Beyond != want {
			t.Errorf("time point %d (%v): beyond %v", i, s.Points[i].Value, s.Points[i].Beyond)
		}
	}
	bw := HistorySeries{Track: Track{"PingPong", 4 << 20, BW}, Points: pts(100, 90, 200)}
	bw.Mark([]float64{100, 110, 90, 100, 100}, tol) // MAD 0: the 5% tolerance decides, [95, 105]
	if bw.Points[0].Beyond || !bw.Points[1].Beyond || bw.Points[2].Beyond {
		t.Errorf("bandwidth points %+v band [%v, %v]", bw.Points, bw.Lo, bw.Hi)
	}
	noisy := HistorySeries{Track: Track{"PingPong", 8, TAvg}, Points: pts(1.2)}
	noisy.Mark([]float64{1, 1.1, 0.9, 1.2, 0.8}, tol) // MAD 0.1: 3 x 0.148 = 44% allowed
	if noisy.Points[0].Beyond || math.Abs(float64(noisy.Allowed)-3*1.4826*0.1) > 1e-9 {
		t.Errorf("noisy reference: allowed %v", noisy.Allowed)
	}
	none := HistorySeries{Points: pts(5)}
	none.Mark(nil, tol)
	if none.Ref != 0 || !math.IsNaN(float64(none.Lo)) || none.Points[0].Beyond {
		t.Errorf("no reference: %+v", none)
	}
}

// FuzzParseTrack: any text is a track or an error, never a panic, and a
// track read writes back to itself.
func FuzzParseTrack(f *testing.F) {
	for _, s := range []string{"PingPong@8", "Allreduce@64k:t_max_us", "Barrier", "x@1g:mbytes_per_sec", "@", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTrack(s)
		if err != nil {
			return
		}
		if back, err := ParseTrack(tr.String()); err != nil || back != tr {
			t.Errorf("%q reads as %+v, writes %q, reads back as %+v, %v", s, tr, tr.String(), back, err)
		}
	})
}
