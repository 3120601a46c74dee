package input

import (
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
)

// TestHistorySeries: a track's points split by process count and
// locality in time order, failed and empty points left out, and each
// series' band from its own first points or from the reference's points
// of the same process count and locality.
func TestHistorySeries(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	pt := func(id int64, np int, loc string, v float64, status string) archive.Point {
		return archive.Point{Run: archive.RunInfo{ID: id, Started: day.Add(time.Duration(id) * time.Hour), Locality: loc},
			NP: np, Value: v, Status: status}
	}
	pts := []archive.Point{
		pt(1, 2, "intra-node", 1.0, "ok"), pt(2, 2, "inter-node", 3.0, "ok"), pt(3, 2, "intra-node", 1.2, "ok"),
		pt(4, 4, "intra-node", 2.0, "ok"), pt(5, 2, "intra-node", 9.0, "failed"), pt(6, 2, "intra-node", 0, "ok"),
		pt(7, 2, "intra-node", 1.1, "ok"),
	}
	ref := []archive.Point{pt(10, 2, "intra-node", 5.0, "ok"), pt(11, 2, "inter-node", 7.0, "ok"), pt(12, 4, "intra-node", 6.0, "failed")}
	track := analysis.Track{Benchmark: "PingPong", Bytes: 8, Metric: "t_avg_us"}
	tol := analysis.DefaultTolerances().For("PingPong", 8)
	for _, c := range []struct {
		name   string
		byRef  bool
		nref   int
		series []string // np/locality: run ids
		refs   []int
		bases  []float64
	}{
		{"own first points", false, 2, []string{"2 intra-node", "2 inter-node", "4 intra-node"}, []int{2, 1, 1}, []float64{1.1, 3.0, 2.0}},
		{"reference runs", true, 5, []string{"2 intra-node", "2 inter-node", "4 intra-node"}, []int{1, 1, 0}, []float64{5.0, 7.0, 0}},
	} {
		got := historySeries(track, pts, ref, c.byRef, c.nref, tol)
		if len(got) != len(c.series) {
			t.Fatalf("%s: %d series, want %d", c.name, len(got), len(c.series))
		}
		for i, s := range got {
			if k := s.Label(); k != "PingPong 8 B t_avg_us, np "+c.series[i][:1]+", "+c.series[i][2:] {
				t.Errorf("%s: series %d is %q, want %s", c.name, i, k, c.series[i])
			}
			if s.Ref != c.refs[i] || (s.Ref > 0 && float64(s.Base) != c.bases[i]) {
				t.Errorf("%s: %s: band of %d runs at %v, want %d at %v", c.name, s.Label(), s.Ref, s.Base, c.refs[i], c.bases[i])
			}
		}
		if n := len(got[0].Points); n != 3 {
			t.Errorf("%s: np 2 intra-node has %d points, want 3 (a failed and an empty one left out)", c.name, n)
		}
	}
}
