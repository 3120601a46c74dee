package report

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
)

// buildHistory is a dashboard of 100 runs a day apart: PingPong's 8 B
// latency intra- and inter-node and its 4 MiB bandwidth; config "base",
// then "ucx" from run 61; runs 96-100 1.6 times slower.
func buildHistory(t *testing.T) *Report {
	t.Helper()
	start := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	series := func(track analysis.Track, loc string, v0 float64) analysis.HistorySeries {
		s := analysis.HistorySeries{Track: track, NP: 2, Locality: loc}
		var ref []float64
		for k := range 100 {
			f := 1 + 0.01*float64(k%3)
			if k >= 95 {
				f = 1.6
			}
			v := v0 * f
			if track.Metric == analysis.BW {
				v = v0 / f
			}
			cfg := "base"
			if k >= 60 {
				cfg = "ucx"
			}
			s.Points = append(s.Points, analysis.HistoryPoint{Run: int64(k + 1), Time: start.AddDate(0, 0, k), Value: v,
				Config: cfg, MPI: "Open MPI v4.1.4"})
			if k < 5 {
				ref = append(ref, v)
			}
		}
		s.Mark(ref, analysis.Tolerance{Band: -1, Rel: 0.05})
		return s
	}
	in := Input{Title: "History of system=sim <b>", Generated: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC),
		History: []analysis.HistorySeries{
			series(analysis.Track{Benchmark: "PingPong", Bytes: 8, Metric: analysis.TAvg}, "intra-node", 0.4),
			series(analysis.Track{Benchmark: "PingPong", Bytes: 8, Metric: analysis.TAvg}, "inter-node", 1.5),
			series(analysis.Track{Benchmark: "PingPong", Bytes: 4 << 20, Metric: analysis.BW}, "inter-node", 12000),
		}}
	r, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestHistoryCharts: a chart per series with time on x, the reference
// band, the runs beyond it (the last five, each on every series), a mark
// where the config changes, and every run in the table, newest first.
func TestHistoryCharts(t *testing.T) {
	r := buildHistory(t)
	if len(r.HistoryCharts) != 3 || len(r.Runs) != 100 || r.Runs[0].ID != 100 {
		t.Fatalf("%d charts, %d runs", len(r.HistoryCharts), len(r.Runs))
	}
	for _, c := range r.HistoryCharts {
		if !c.Time || len(c.X) != 100 || len(c.Beyond) != 5 || c.Beyond[0] != 95 || len(c.Marks) != 1 ||
			c.Marks[0].Text != "ucx, Open MPI v4.1.4" || len(c.Series[0].Lo) != 100 || math.IsNaN(float64(c.Series[0].Lo[0])) {
			t.Errorf("chart %s: time %v, %d points, beyond %v, marks %v", c.Title, c.Time, len(c.X), c.Beyond, c.Marks)
		}
	}
	for _, run := range r.Runs {
		if (run.ID > 95) != (len(run.Beyond) == 3) {
			t.Errorf("run %d beyond on %v", run.ID, run.Beyond)
		}
	}
	page := html(t, r)
	for _, want := range []string{"<h2>Over time</h2>", `<tr id="run-100">`, "band: the median of 5 reference runs",
		"History of system=sim &lt;b&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<h2>Plots</h2>") {
		t.Error("a history page with an empty plots section")
	}
}
