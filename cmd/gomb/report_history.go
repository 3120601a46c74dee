package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
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
		cli.AtLeast(1, "runs", func(v int) { h.nref = v }))
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
	if db.Warning != "" {
		fmt.Fprintln(stderr, db.Warning)
	}
	tracks := h.tracks
	if len(tracks) == 0 {
		tracks = analysis.DefaultTracks
	}
	nref := h.nref
	if nref == 0 {
		nref = 5
	}
	all, nrefPoints, err := input.History(db, sel, refSel, h.reference != "", tracks, nref, h.tols)
	if err != nil {
		return cli.Usage("report %v", err)
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
	db, err := archive.OpenExisting(path)
	if err != nil {
		return "", nil, cli.Usage("report -history: %v", err)
	}
	return db.Path, db, nil
}

func trackList(ts []analysis.Track) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}
