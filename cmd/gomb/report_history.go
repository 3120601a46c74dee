package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/report"
)

// historyFlags are gomb report -history's: what to follow and against
// which reference.
type historyFlagSet struct {
	on        bool
	tracks    []analysis.Track
	reference string
	nref      int
	tols      analysis.Tolerances
}

func (h *historyFlagSet) register(fs *flag.FlagSet) {
	h.tols = analysis.DefaultTolerances()
	fs.BoolVar(&h.on, "history", false, "a dashboard of the archive's runs over time instead: RUN... is one archive "+
		"selection ('system=hpc4 since=2026-01-01')")
	fs.Func("track", "`BENCH[@SIZE][:METRIC],...` with -history, what to follow (repeatable; default "+
		defaultTracksText()+"); METRIC t_avg_us, t_min_us, t_max_us or mbytes_per_sec", func(s string) error {
		ts, err := analysis.ParseTracks(s)
		h.tracks = append(h.tracks, ts...)
		return err
	})
	fs.StringVar(&h.reference, "reference", "", "`SEL` with -history, the runs whose median and spread make the band "+
		"(an archive selection: 'config=base last=10'; default the first -reference-runs runs of each series)")
	fs.Func("reference-runs", "`N` with -history and no -reference, how many of the oldest runs make the band (default 5)",
		func(s string) error {
			_, err := fmt.Sscanf(s, "%d", &h.nref)
			if err != nil || h.nref < 1 {
				return fmt.Errorf("want a count of runs, got %q", s)
			}
			return nil
		})
	tolFlag(fs, "`[BENCH][@BAND]=LIMIT` with -history, the tolerance of the band, as gomb check's -tol (default 5%)", &h.tols)
}

// historyFlagNames are the flags historyFlagSet registers, in help order.
var historyFlagNames = []string{"history", "track", "reference", "reference-runs", "tol"}

func defaultTracksText() string {
	var s []string
	for _, t := range analysis.DefaultTracks {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// runReportHistory writes the history dashboard of an archive selection:
// per track, process count and locality, the value of every run over time
// against the reference runs' band.
func runReportHistory(c *reportCmd, stdout, stderr io.Writer) error {
	h := c.hist
	sel, err := archive.ParseSelector(c.pos)
	if err != nil {
		return cli.Usage("report -history: %v", err)
	}
	var refSel archive.Selector
	if h.reference != "" {
		if refSel, err = archive.ParseSelector(strings.Fields(h.reference)); err != nil {
			return cli.Usage("report -reference: %v", err)
		}
	}
	path, db, err := openHistoryArchive(c.in.archive)
	if err != nil {
		return err
	}
	defer db.Close()
	tracks := h.tracks
	if len(tracks) == 0 {
		tracks = analysis.DefaultTracks
	}
	nref := h.nref
	if nref == 0 {
		nref = 5
	}
	all, nrefPoints, err := historyAll(db, h, sel, refSel, tracks, nref)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return cli.Usage("report -history: no run of %q has any of %s", strings.Join(c.pos, " "), trackList(tracks))
	}
	if h.reference != "" && nrefPoints == 0 {
		// the page would draw no band at all, silently
		return cli.Usage("report -reference %q: no run it selects has any of %s", h.reference, trackList(tracks))
	}
	in := report.Input{Title: c.title, Generated: time.Now(), History: all}
	if in.Title == "" {
		in.Title = "History of " + strings.Join(c.pos, " ")
	}
	rep, err := report.Build(in)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := cli.WriteOutput(stdout, "-o", c.out, []string{path}, rep.WriteHTML); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	runs := map[int64]bool{}
	for _, s := range all {
		for _, p := range s.Points {
			runs[p.Run] = true
		}
	}
	fmt.Fprintf(stderr, "gomb report: wrote %s: %d series, %d runs\n", c.out, len(all), len(runs))
	return nil
}

// openHistoryArchive opens the archive report -history reads; a missing
// one is bad input (it is not made).
func openHistoryArchive(name string) (string, *archive.DB, error) {
	path, err := archive.Resolve(name)
	if err != nil {
		return "", nil, cli.Usage("report -history: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		return "", nil, cli.Usage("report -history: no archive at %s (gomb archive add makes one)", path)
	}
	db, err := archive.Open(path)
	if err != nil {
		return "", nil, cli.Usage("report -history: %v", err)
	}
	return path, db, nil
}

// historyAll is every track's series of the selected runs, with the
// reference runs' band where -reference gives them, and how many points
// the reference has.
func historyAll(db *archive.DB, h historyFlagSet, sel, refSel archive.Selector, tracks []analysis.Track, nref int) ([]analysis.HistorySeries, int, error) {
	var all []analysis.HistorySeries
	nrefPoints := 0
	for _, t := range tracks {
		pts, err := db.History(sel, t.Benchmark, t.Bytes, 0, string(t.Metric))
		if err != nil {
			return nil, 0, cli.Usage("report -history: %v", err)
		}
		var ref []archive.Point
		if h.reference != "" {
			if ref, err = db.History(refSel, t.Benchmark, t.Bytes, 0, string(t.Metric)); err != nil {
				return nil, 0, cli.Usage("report -reference: %v", err)
			}
			nrefPoints += len(ref)
		}
		all = append(all, historySeries(t, pts, ref, h.reference != "", nref, h.tols.For(t.Benchmark, t.Bytes))...)
	}
	return all, nrefPoints, nil
}

func trackList(ts []analysis.Track) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// historySeries splits a track's points by process count and locality
// (intra- and inter-node never share a band), in time order, and marks
// each series against its reference: the reference selection's points of
// the same process count and locality, or the series' first nref points.
func historySeries(t analysis.Track, pts, ref []archive.Point, byRef bool, nref int, tol analysis.Tolerance) []analysis.HistorySeries {
	type key struct {
		np  int
		loc string
	}
	var order []key
	by := map[key]*analysis.HistorySeries{}
	for _, p := range pts {
		if p.Status != "ok" || !(p.Value > 0) {
			continue
		}
		k := key{p.NP, p.Run.Locality}
		s := by[k]
		if s == nil {
			s = &analysis.HistorySeries{Track: t, NP: p.NP, Locality: p.Run.Locality}
			by[k] = s
			order = append(order, k)
		}
		when := p.Run.Started
		if when.IsZero() {
			when = p.Run.Added
		}
		s.Points = append(s.Points, analysis.HistoryPoint{Run: p.Run.ID, Time: when, Value: p.Value,
			Config: p.Run.Config, MPI: p.Run.MPI})
	}
	out := make([]analysis.HistorySeries, 0, len(order))
	for _, k := range order {
		s := by[k]
		var vals []float64
		if byRef {
			for _, p := range ref {
				if p.Status == "ok" && p.Value > 0 && p.NP == k.np && p.Run.Locality == k.loc {
					vals = append(vals, p.Value)
				}
			}
		} else {
			for i := 0; i < len(s.Points) && i < nref; i++ {
				vals = append(vals, s.Points[i].Value)
			}
		}
		s.Mark(vals, tol)
		out = append(out, *s)
	}
	return out
}
