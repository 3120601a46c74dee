// Package report draws gomb's HTML report: one self-contained file (plots
// inlined as data: URIs, a content security policy that forbids any
// network access) with latency and bandwidth against message size, the A/B
// speed per size and the band table, and explain's findings; each plot is
// also written as SVG and PNG. It draws what the analysis package computed
// and computes no statistics itself.
package report

import (
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/internal/suite"
)

//go:embed report.html.tmpl
var files embed.FS

// page is the report's template, parsed on first use (not when the
// program starts: measuring ranks never draw a report).
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
		"size":  analysis.Size,
		"speed": text.Speed[analysis.Float],
		"num":   text.Num[analysis.Float],
		"upper": strings.ToUpper,
		"svg": func(p Plot) template.URL {
			return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(p.SVG))
		},
		"series": seriesName,
		"add":    func(a, b int) int { return a + b },
		"pct":    func(v float64) float64 { return 100 * v },
		"heat":   heatClass,
		"speedClass": func(v analysis.Float, significant, sizes int) string {
			switch {
			case sizes == 0 || significant == 0:
				return "ns"
			case v > 1:
				return "faster"
			}
			return "slower"
		},
	}).ParseFS(files, "report.html.tmpl"))
})

// Side is one side of the report: a label, the runs it holds (described
// in words) and their profiles.
type Side struct {
	Label    string
	Runs     []string
	Profiles []analysis.Profile
}

// Fleet is a fleet sweep of the report (gomb fleet's records): its
// matrices and culprits, drawn as heat maps.
type Fleet struct {
	Run string
	*analysis.Fleet
}

// heatClass is a heat map cell's class: how far v is from the typical
// pair's value typ, worse (bandwidth lower: higher is false; latency
// higher), in steps of 10%, 25%, 50%, 2x; "na" where there is no pair.
func heatClass(v, typ float64, higher bool) string {
	if math.IsNaN(v) || !(typ > 0) || !(v > 0) {
		return "na"
	}
	r := v / typ
	if higher {
		r = typ / v
	}
	switch {
	case r >= 2:
		return "h4"
	case r >= 1.5:
		return "h3"
	case r >= 1.25:
		return "h2"
	case r >= 1.1:
		return "h1"
	}
	return "h0"
}

// RunFindings are explain's findings for one run.
type RunFindings struct {
	Run      string
	Findings []analysis.Finding
}

// Input is what a report shows.
type Input struct {
	Title      string
	Generated  time.Time
	Sides      []Side               // one for a plain report, A and B for a comparison
	Comparison *analysis.Comparison // with two sides
	Findings   []RunFindings
	Link       analysis.Link
	// Fleets are the fleet sweeps among the runs (node x node heat maps).
	Fleets []Fleet
	// Suite is an acceptance suite's results table (gomb suite report
	// -format html), with explain's findings under each row.
	Suite *suite.Table
	// History, instead of sides: tracks of archived runs over time, each
	// with the band of its reference runs (gomb report -history).
	History []analysis.HistorySeries
}

// SuiteInput is the input of an acceptance suite's report (gomb suite
// report -format html): its results table on top, and one side of every
// run its records hold, each named by its row, repetition and command,
// with the table's profiles (its TableOptions.Explain).
func SuiteInput(t *suite.Table, generated time.Time) Input {
	in := Input{Title: t.Title, Generated: generated, Suite: t}
	if len(t.Runs) == 0 {
		return in
	}
	side := Side{Label: t.Suite, Profiles: t.Profiles}
	for _, r := range t.Runs {
		cmd := r.Run.Command[min(1, len(r.Run.Command)):]
		side.Runs = append(side.Runs, fmt.Sprintf("%s rep %s: %s", r.Run.Labels["row"], r.Run.Labels["rep"], strings.Join(cmd, " ")))
	}
	in.Sides = []Side{side}
	return in
}

// Section is one series: its interactive charts and the same plots
// drawn statically (SVG, PNG).
type Section struct {
	Title  string
	Charts []Chart
	Plots  []Plot
}

// Report is a built report.
type Report struct {
	Input
	Sections []Section
	// HistoryCharts are History's charts, one per series; Runs the runs
	// they show, newest first, for the table their points link to.
	HistoryCharts []Chart
	Runs          []HistoryRun
	Ratio         []Plot // A/B speed per size, one per series
	// PlotsDir is where the static plots are, relative to the page (the
	// page links them); "" for none.
	PlotsDir string
}

// Build draws every plot.
func Build(in Input) (*Report, error) {
	r := &Report{Input: in}
	if len(in.History) > 0 {
		r.HistoryCharts, r.Runs = historyCharts(in.History)
	}
	var order []analysis.Series
	seen := map[analysis.Series]bool{}
	for _, s := range in.Sides {
		for _, p := range s.Profiles {
			if !seen[p.Series] {
				seen[p.Series] = true
				order = append(order, p.Series)
			}
		}
	}
	n := 0
	next := func(kind string, s analysis.Series) string {
		n++
		return fmt.Sprintf("%02d-%s-%s-np%d-%s", n, s.Suite, fileSafe(s.Benchmark), s.NP, kind)
	}
	linkLabel := ""
	if in.Link.Gbps > 0 {
		linkLabel = fmt.Sprintf("link %.0f Gb/s (%s)", in.Link.Gbps, in.Link.Source)
	}
	for _, s := range order {
		var curves []analysis.Profile
		var labels []string
		for _, side := range in.Sides {
			for _, p := range side.Profiles {
				if p.Series == s {
					curves = append(curves, p)
					labels = append(labels, side.Label)
				}
			}
		}
		cs := make([]Curve, len(curves))
		for i := range curves {
			cs[i] = Curve{Label: labels[i], Profile: curves[i]}
		}
		sec := Section{Title: seriesName(s)}
		add := func(p Plot, c Chart, ok bool) {
			if ok {
				c.ID, c.Files = "c-"+p.Name, p.Name
				sec.Plots, sec.Charts = append(sec.Plots, p), append(sec.Charts, c)
			}
		}
		name, title := next("latency", s), seriesName(s)+": time per message size"
		lat, ok, err := LatencyPlot(name, title, cs)
		if err != nil {
			return nil, err
		}
		add(lat, latencyChart(title, cs), ok)
		name, title = next("bandwidth", s), seriesName(s)+": bandwidth"
		bw, ok, err := BandwidthPlot(name, title, cs, in.Link.MBps(), linkLabel)
		if err != nil {
			return nil, err
		}
		add(bw, bandwidthChart(title, cs, in.Link.MBps()), ok)
		if in.Comparison != nil {
			var rows []analysis.Row
			for _, row := range in.Comparison.Rows {
				if row.Key.Series() == s {
					rows = append(rows, row)
				}
			}
			title := seriesName(s) + ": speed of B over A"
			rp, ok, err := RatioPlot(next("speed", s), title, rows)
			if err != nil {
				return nil, err
			}
			if ok {
				r.Ratio = append(r.Ratio, rp)
			}
			add(rp, ratioChart(title, rows), ok)
		}
		if len(sec.Plots) > 0 {
			r.Sections = append(r.Sections, sec)
		}
	}
	return r, nil
}

// BandLabels are the size bands' names, for the band table's head.
func (r *Report) BandLabels() []string {
	var out []string
	for _, b := range analysis.Bands {
		out = append(out, b.Label)
	}
	return out
}

// WriteHTML writes the self-contained page.
func (r *Report) WriteHTML(w io.Writer) error {
	return page().Execute(w, r)
}

// WritePlots writes every plot as NAME.svg and NAME.png into dir.
func (r *Report) WritePlots(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var names []string
	for _, s := range r.Sections {
		for _, p := range s.Plots {
			for _, f := range []struct {
				ext  string
				data []byte
			}{{".svg", p.SVG}, {".png", p.PNG}} {
				path := filepath.Join(dir, p.Name+f.ext)
				if err := os.WriteFile(path, f.data, 0o644); err != nil {
					return names, err
				}
				names = append(names, path)
			}
		}
	}
	return names, nil
}

// WritePlotsFor writes the static plots of the page out in dir (by
// default beside it: NAME_plots) and points the page at them, relative to
// the page where it is a file. It returns the directory and the files.
func (r *Report) WritePlotsFor(dir, out string) (string, []string, error) {
	if dir == "" {
		dir = strings.TrimSuffix(out, ".html") + "_plots"
	}
	files, err := r.WritePlots(dir)
	if err != nil {
		return "", nil, err
	}
	r.PlotsDir = dir
	if rel, err := filepath.Rel(filepath.Dir(out), dir); err == nil && out != "-" && out != "" {
		r.PlotsDir = filepath.ToSlash(rel)
	}
	return dir, files, nil
}

// Title says what a report of sides shows: the sides and the benchmarks
// ("dell, Intel MPI vs run 3: PingPong"), the first three of many.
func Title(sides []Side) string {
	var names, benches []string
	for _, s := range sides {
		names = append(names, s.Label)
		for _, p := range s.Profiles {
			if !slices.Contains(benches, p.Series.Benchmark) {
				benches = append(benches, p.Series.Benchmark)
			}
		}
	}
	if len(benches) > 3 {
		benches = append(benches[:3], fmt.Sprintf("and %d more", len(benches)-3))
	}
	return strings.Join(names, " vs ") + ": " + strings.Join(benches, ", ")
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

func seriesName(s analysis.Series) string {
	if s.Benchmark == "" {
		return "whole run"
	}
	return fmt.Sprintf("%s %s, np %d", s.Suite, s.Benchmark, s.NP)
}
