package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/result"
)

// The page's scripts: uPlot (vendored, MIT: vendor/uplot) and gomb's
// charts.js, inlined and allowed by the content security policy through
// their SHA-256 hashes, so no other script can run in the page.
var (
	//go:embed vendor/uplot/uPlot.iife.min.js
	uplotJS string
	//go:embed vendor/uplot/uPlot.min.css
	uplotCSS string
	//go:embed charts.js
	chartsJS string
)

// ChartSeries is one curve of an interactive chart: a value per size of
// the chart's X (null where the side lacks the size), and the bands drawn
// around it.
type ChartSeries struct {
	Label  string         `json:"label"`
	Colour string         `json:"colour"`
	Y      []result.Float `json:"y"`
	Lo     []result.Float `json:"lo,omitempty"`  // t_min, or the interval's low end
	Hi     []result.Float `json:"hi,omitempty"`  // t_max, or its high end
	P10    []result.Float `json:"p10,omitempty"` // percentiles of the raw samples
	P90    []result.Float `json:"p90,omitempty"`
}

// Chart is one interactive plot, as charts.js draws it.
type Chart struct {
	ID     string        `json:"id"`
	Title  string        `json:"title"`
	YLabel string        `json:"ylabel"`
	Unit   string        `json:"unit"`
	Band   string        `json:"band"` // what Lo-Hi is, for the tooltip
	LogY   bool          `json:"log_y"`
	From0  bool          `json:"from0"`
	Ref    float64       `json:"ref,omitempty"` // a dashed line at this value: the link's MB/s, 1 (no change)
	X      []int64       `json:"x"`             // sizes in bytes, or with Time seconds since 1970
	Series []ChartSeries `json:"series"`
	// History charts: x is time; each point's run (its anchor in the
	// page's table), the points beyond the band, the label changes.
	Time   bool               `json:"time,omitempty"`
	Runs   []HistoryPointInfo `json:"runs,omitempty"`
	Beyond []int              `json:"beyond,omitempty"`
	Marks  []Mark             `json:"marks,omitempty"`
	Note   string             `json:"-"`
	// Files are the static exports of the same plot (SVG, PNG), by name.
	Files string `json:"-"`
}

func hex(i int) string {
	c := colour(i)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// sizes are the positive sizes of the curves, in order.
func sizes(curves []Curve) []int64 {
	var xs []int64
	for _, c := range curves {
		for _, p := range c.Profile.Points {
			if p.Bytes > 0 && !slices.Contains(xs, p.Bytes) {
				xs = append(xs, p.Bytes)
			}
		}
	}
	slices.Sort(xs)
	return xs
}

// column is one value of every point, aligned to xs (NaN where absent).
func column(xs []int64, pts []analysis.ProfilePoint, get func(analysis.ProfilePoint) float64) []result.Float {
	out := make([]result.Float, len(xs))
	for i := range out {
		out[i] = result.Float(math.NaN())
	}
	for _, p := range pts {
		if i, ok := slices.BinarySearch(xs, p.Bytes); ok {
			if v := get(p); v > 0 && !math.IsInf(v, 0) {
				out[i] = result.Float(v)
			}
		}
	}
	return out
}

// anyValue reports whether a column holds a value.
func anyValue(col []result.Float) bool {
	return slices.ContainsFunc(col, func(v result.Float) bool { return !math.IsNaN(float64(v)) })
}

// latencyChart: each side's t_avg with its t_min-t_max band and the
// p10-p90 band of the raw samples.
func latencyChart(title string, curves []Curve) Chart {
	ch := Chart{Title: title, YLabel: "time [µs]", Unit: "µs", Band: "t_min-t_max", LogY: true, X: sizes(curves)}
	for i, c := range curves {
		pts := c.Profile.Points
		s := ChartSeries{Label: c.Label, Colour: hex(i),
			Y:  column(ch.X, pts, func(p analysis.ProfilePoint) float64 { return p.TAvg }),
			Lo: column(ch.X, pts, func(p analysis.ProfilePoint) float64 { return p.TMin }),
			Hi: column(ch.X, pts, func(p analysis.ProfilePoint) float64 { return p.TMax })}
		p10 := column(ch.X, pts, func(p analysis.ProfilePoint) float64 { return float64(p.P10) })
		if anyValue(p10) {
			s.P10, s.P90 = p10, column(ch.X, pts, func(p analysis.ProfilePoint) float64 { return float64(p.P90) })
		}
		if anyValue(s.Y) {
			ch.Series = append(ch.Series, s)
		}
	}
	return ch
}

// bandwidthChart: each side's MB/s, and the link's rate dashed.
func bandwidthChart(title string, curves []Curve, linkMBps float64) Chart {
	ch := Chart{Title: title, YLabel: "bandwidth [MB/s]", Unit: "MB/s", From0: true, Ref: linkMBps, X: sizes(curves)}
	for i, c := range curves {
		s := ChartSeries{Label: c.Label, Colour: hex(i),
			Y: column(ch.X, c.Profile.Points, func(p analysis.ProfilePoint) float64 { return p.MBps })}
		if anyValue(s.Y) {
			ch.Series = append(ch.Series, s)
		}
	}
	return ch
}

// ratioChart: the speed of B over A per size with its interval.
func ratioChart(title string, rows []analysis.Row) Chart {
	ch := Chart{Title: title, YLabel: "speed of B over A (higher = faster)", Unit: "x", Band: "interval", LogY: true, Ref: 1}
	for _, r := range rows {
		if r.Key.Bytes > 0 && r.Speed > 0 && !slices.Contains(ch.X, r.Key.Bytes) {
			ch.X = append(ch.X, r.Key.Bytes)
		}
	}
	slices.Sort(ch.X)
	s := ChartSeries{Label: "B / A", Colour: hex(0)}
	for _, col := range []*[]result.Float{&s.Y, &s.Lo, &s.Hi} {
		*col = make([]result.Float, len(ch.X))
		for i := range *col {
			(*col)[i] = result.Float(math.NaN())
		}
	}
	for _, r := range rows {
		if i, ok := slices.BinarySearch(ch.X, r.Key.Bytes); ok && r.Speed > 0 {
			s.Y[i] = r.Speed
			if r.CI {
				s.Lo[i], s.Hi[i] = r.Lo, r.Hi
			}
		}
	}
	if !anyValue(s.Lo) {
		s.Lo, s.Hi = nil, nil
	}
	ch.Series = []ChartSeries{s}
	return ch
}

// ChartData is the charts as the page embeds them (JSON; '<' escaped, so
// no "</script>" can end the block early).
func (r *Report) ChartData() (template.JS, error) {
	all := slices.Clone(r.HistoryCharts)
	for _, s := range r.Sections {
		all = append(all, s.Charts...)
	}
	if all == nil {
		all = []Chart{}
	}
	b, err := json.Marshal(all)
	return template.JS(b), err
}

// UplotJS is uPlot, verbatim (the CSP hashes it).
func (r *Report) UplotJS() template.JS { return template.JS(uplotJS) }

// ChartsJS is gomb's chart script, verbatim (the CSP hashes it).
func (r *Report) ChartsJS() template.JS { return template.JS(chartsJS) }

// UplotCSS is uPlot's style sheet.
func (r *Report) UplotCSS() template.CSS { return template.CSS(uplotCSS) }

// CSP is the page's content security policy: nothing from the network,
// images from data: URIs only, scripts by hash.
func (r *Report) CSP() string {
	h := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src " + h(uplotJS) + " " + h(chartsJS)
}
