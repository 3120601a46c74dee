package report

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/result"
)

// HistoryRun is one archived run of a history, as the table lists it.
type HistoryRun struct {
	ID             int64
	Time           time.Time
	Config, MPI    string
	Beyond         []string // the series where its value is beyond the band
	Series, Points int
}

// Mark is an annotation on a history chart: where the config or the MPI
// library changed from the run before.
type Mark struct {
	X    float64 `json:"x"` // seconds since 1970
	Text string  `json:"text"`
}

// historyCharts makes a chart of each history series (time on x, the
// reference band, points beyond it marked, a mark where the labels
// change) and the table of runs their points link to.
func historyCharts(hs []analysis.HistorySeries) ([]Chart, []HistoryRun) {
	var charts []Chart
	runs := map[int64]*HistoryRun{}
	for i, s := range hs {
		unit := s.Track.Metric.Unit()
		ch := Chart{ID: fmt.Sprintf("h-%02d", i+1), Title: s.Label(), YLabel: fmt.Sprintf("%s [%s]", s.Track.Metric, unit),
			Unit: unit, Band: "band", Time: true, From0: s.Track.Metric == analysis.BW}
		sr := ChartSeries{Label: s.Label(), Colour: hex(0)}
		prev := analysis.HistoryPoint{}
		for j, p := range s.Points {
			ch.X = append(ch.X, p.Time.Unix())
			sr.Y = append(sr.Y, result.Float(p.Value))
			if !math.IsNaN(float64(s.Lo)) {
				sr.Lo, sr.Hi = append(sr.Lo, s.Lo), append(sr.Hi, s.Hi)
			}
			ch.Runs = append(ch.Runs, HistoryPointInfo{Run: p.Run, Note: note(p)})
			if p.Beyond {
				ch.Beyond = append(ch.Beyond, j)
			}
			if j > 0 && (p.Config != prev.Config || p.MPI != prev.MPI) {
				ch.Marks = append(ch.Marks, Mark{X: float64(p.Time.Unix()), Text: note(p)})
			}
			prev = p
			hr := runs[p.Run]
			if hr == nil {
				hr = &HistoryRun{ID: p.Run, Time: p.Time, Config: p.Config, MPI: p.MPI}
				runs[p.Run] = hr
			}
			hr.Points++
			if p.Beyond {
				hr.Beyond = append(hr.Beyond, s.Label())
			}
		}
		if !math.IsNaN(float64(s.Base)) {
			ch.Note = fmt.Sprintf("band: the median of %d reference runs, %s %s, ±%.1f%% (the larger of the tolerance and 3x their spread)",
				s.Ref, text.Num(s.Base), unit, 100*float64(s.Allowed))
		}
		ch.Series = []ChartSeries{sr}
		charts = append(charts, ch)
	}
	list := make([]HistoryRun, 0, len(runs))
	for _, r := range runs {
		list = append(list, *r)
	}
	slices.SortFunc(list, func(a, b HistoryRun) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	return charts, list
}

// HistoryPointInfo says which run a point of a history chart is.
type HistoryPointInfo struct {
	Run  int64  `json:"run"`
	Note string `json:"note"`
}

func note(p analysis.HistoryPoint) string {
	n := p.Config
	if p.MPI != "" {
		if n != "" {
			n += ", "
		}
		n += p.MPI
	}
	return n
}
