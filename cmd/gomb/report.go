package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/result"
)

const reportUsageText = `Usage: gomb report [flags] RUN... [vs RUN...] -o report.html

Writes one self-contained HTML file — no network access when it is viewed —
with, per benchmark and process count, time against message size on
log-log axes (t_avg, the band from t_min to t_max) and bandwidth against
size (with the link rate when known); with 'vs', the speed of B over A per
size with its interval and the table by size band; and explain's findings
for every run. Each plot is also written as SVG and PNG (-plots).

` + inputHelp + `

Flags:
  -o FILE         the HTML file (report.html)
  -plots DIR      where the SVG and PNG files go (FILE without .html, plus _plots)
  -title TEXT     the report's title
  -link RATE      the link rate in Gb/s for efficiency and the bandwidth plots
                  (default: what the runs recorded)
  -metric M, -alpha A, -noise N, -force   as for gomb compare
` + inputFlagsHelp + `
Exit status: 0 written, 1 could not write, 2 bad input.

Examples:
  gomb report run.jsonl -o run.html
  gomb report base-*.jsonl vs xpmem-*.jsonl -title 'XPMEM on hpc4' -o xpmem.html
  gomb report 'system=hpc4 last=1' -link 100 -o hpc4.html
`

func runReport(stdout, stderr io.Writer, args []string) error {
	var in inputFlags
	fs := flag.NewFlagSet("gomb report", flag.ContinueOnError)
	in.register(fs)
	out := fs.String("o", "report.html", "")
	plots := fs.String("plots", "", "")
	title := fs.String("title", "", "")
	metricName := fs.String("metric", "", "")
	alpha := alphaFlag(fs)
	noise := noiseFlag(fs)
	force := fs.Bool("force", false, "")
	var link analysis.Link
	linkFlag(fs, "link", &link)
	pos, err := parseCommand(stdout, fs, reportUsageText, args)
	if err != nil {
		return helpDone(err)
	}
	if len(pos) == 0 {
		return usageErr("report: give the runs to report ('gomb report -help')")
	}
	metric, err := analysis.ParseMetric(*metricName)
	if err != nil {
		return usageErr("report: %v", err)
	}
	if err := refuseInput("-o", *out, in.inputs(pos)); err != nil {
		return err
	}
	sides := [][]string{pos}
	for _, p := range pos {
		if p == "vs" {
			a, b, err := splitSides(pos)
			if err != nil {
				return err
			}
			sides = [][]string{a, b}
			break
		}
	}
	r := in.resolver()
	defer r.Close()
	input := report.Input{Title: *title, Generated: time.Now(), Link: link}
	var runs [][]*result.Bundle
	for i, items := range sides {
		what := "report"
		if len(sides) == 2 {
			what = []string{"A", "B"}[i]
		}
		rs, err := resolve(stderr, r, what, items)
		if err != nil {
			return err
		}
		runs = append(runs, rs)
		side := report.Side{Label: sideName(items), Profiles: analysis.Profiles(rs)}
		for _, run := range rs {
			side.Runs = append(side.Runs, describeRun(run))
			hist, err := history(r, in.archive, run, 10)
			if err != nil {
				return err
			}
			f := analysis.Explain(run, analysis.ExplainOptions{Link: link, History: hist})
			input.Findings = append(input.Findings, report.RunFindings{Run: describeRun(run), Findings: f})
			if input.Link.Gbps == 0 {
				input.Link = analysis.RunLink(run.Run)
			}
		}
		input.Sides = append(input.Sides, side)
	}
	if len(runs) == 2 {
		n, src := launchNoise(r, in.archive, *noise, runs...)
		c, err := analysis.Compare(input.Sides[0].Label, runs[0], input.Sides[1].Label, runs[1],
			analysis.CompareOptions{Metric: metric, Alpha: *alpha, Noise: n, NoiseSource: src, Force: *force})
		if err != nil {
			return usageErr("report: %v", err)
		}
		input.Comparison = c
	}
	if input.Title == "" {
		input.Title = "gomb report: " + input.Sides[0].Label
		if len(input.Sides) == 2 {
			input.Title += " vs " + input.Sides[1].Label
		}
	}
	rep, err := report.Build(input)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	dir := *plots
	if dir == "" {
		dir = strings.TrimSuffix(*out, ".html") + "_plots"
	}
	files, err := rep.WritePlots(dir)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := writeOutput(stdout, "-o", *out, in.inputs(pos), rep.WriteHTML); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(stderr, "gomb report: wrote %s and %d plot files in %s\n", *out, len(files), dir)
	return nil
}
