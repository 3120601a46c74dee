package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/result"
)

func reportHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb report [flags] RUN... [vs RUN...] -o report.html",
		Intro: `Writes one self-contained HTML file — no network access when it is viewed —
with, per benchmark and process count, time against message size on
log-log axes (t_avg, the band from t_min to t_max) and bandwidth against
size (with the link rate when known); with 'vs', the speed of B over A per
size with its interval and the table by size band; and explain's findings
for every run. Each plot is also written as SVG and PNG (-plots).

` + inputHelp,
		Groups: []cli.Group{{Title: "Flags:", Flags: slices.Concat([]string{"o", "plots", "title", "link"},
			compareFlagNames, inputFlagNames)},
			{Title: "History dashboard (an archive selection over time):", Flags: historyFlagNames}},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage}, map[int]string{0: "written", cli.ExitFailure: "could not write", cli.ExitUsage: "bad input"}),
		Examples: []string{
			"gomb report run.jsonl -o run.html",
			"gomb report base-*.jsonl vs xpmem-*.jsonl -title 'XPMEM on hpc4' -o xpmem.html",
			"gomb report 'system=hpc4 last=1' -link 100 -o hpc4.html",
			"gomb report -history system=hpc4 since=2026-01-01 -o hpc4-history.html",
			"gomb report -history system=hpc4 -reference 'config=base last=10' -track PingPong@8,Allreduce@64K -o h.html",
		},
	}
}

// reportCmd is gomb report's command line.
type reportCmd struct {
	in                inputFlags
	cf                compareFlags
	out, plots, title string
	link              analysis.Link
	hist              historyFlagSet
	pos               []string
	sides             [][]string
}

func newReportCmd() *reportCmd { return &reportCmd{out: "report.html"} }

func reportFlagSet(c *reportCmd) *flag.FlagSet {
	fs := cli.NewFlagSet("report")
	fs.StringVar(&c.out, "o", c.out, "`FILE` the HTML file")
	fs.StringVar(&c.plots, "plots", "", "`DIR` where the SVG and PNG files go (default FILE without .html, plus _plots)")
	fs.StringVar(&c.title, "title", "", "`TEXT` the report's title")
	linkFlag(fs, "link", "`RATE` the link rate in Gb/s for efficiency and the bandwidth plots (default: what the runs recorded)", &c.link)
	c.cf.register(fs)
	c.in.register(fs)
	c.hist.register(fs)
	return fs
}

var reportUsage = helpWriter(reportHelp, reportFlagSet(newReportCmd()))

func parseReport(args []string) (*reportCmd, error) {
	c := newReportCmd()
	pos, err := cli.ParseCommand(reportFlagSet(c), args)
	if err != nil {
		return nil, err
	}
	if len(pos) == 0 {
		return nil, cli.Usage("report: give the runs to report ('gomb report -help')")
	}
	if c.hist.on {
		if slices.Contains(pos, "vs") {
			return nil, cli.Usage("report -history: give one archive selection, no 'vs'")
		}
		c.pos = pos
		return c, nil
	}
	if len(c.hist.tracks) > 0 || c.hist.reference != "" || c.hist.nref > 0 {
		return nil, cli.Usage("report: -track, -reference and -reference-runs need -history")
	}
	if err := c.cf.parseMetric("report"); err != nil {
		return nil, err
	}
	c.pos, c.sides = pos, [][]string{pos}
	if slices.Contains(pos, "vs") {
		a, b, err := splitSides(pos)
		if err != nil {
			return nil, err
		}
		c.sides = [][]string{a, b}
	}
	return c, nil
}

func runReport(stdout, stderr io.Writer, args []string) error {
	c, err := parseReport(args)
	if err != nil {
		return helpOr(err, stdout, reportUsage)
	}
	if c.hist.on {
		return runReportHistory(c, stdout, stderr)
	}
	if err := cli.RefuseInput("-o", c.out, c.in.inputs(c.pos)); err != nil {
		return err
	}
	r := c.in.resolver()
	defer r.Close()
	in := report.Input{Title: c.title, Generated: time.Now(), Link: c.link}
	runs, err := reportRuns(stderr, r, c.sides)
	if err != nil {
		return err
	}
	if err := reportSides(&in, r, c.link, c.sides, runs); err != nil {
		return err
	}
	if len(runs) == 2 {
		cmp, err := analysis.Compare(in.Sides[0].Label, runs[0], in.Sides[1].Label, runs[1], c.cf.options(r, runs...))
		if err != nil {
			return cli.Usage("report: %v", err)
		}
		in.Comparison = cmp
	}
	if in.Title == "" {
		in.Title = report.Title(in.Sides)
	}
	rep, err := report.Build(in)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	dir, files, err := rep.WritePlotsFor(c.plots, c.out)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := cli.WriteOutput(stdout, "-o", c.out, c.in.inputs(c.pos), rep.WriteHTML); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(stderr, "gomb report: wrote %s and %d plot files in %s\n", c.out, len(files), dir)
	return nil
}

// reportRuns resolves each side's runs (one side, or A and B).
func reportRuns(stderr io.Writer, r *input.Resolver, sides [][]string) ([][]*result.Bundle, error) {
	var runs [][]*result.Bundle
	for i, items := range sides {
		what := "report"
		if len(sides) == 2 {
			what = []string{"A", "B"}[i]
		}
		rs, err := resolve(stderr, r, what, items)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs)
	}
	return runs, nil
}

// reportSides fills the report's sides (profiles, runs) and each run's
// findings, explained against its history and its log's other runs; the
// link rate, where none was given (link), is the first run's.
func reportSides(in *report.Input, r *input.Resolver, link analysis.Link, sides [][]string, runs [][]*result.Bundle) error {
	names := input.ReadableNames(sides, runs)
	for i, rs := range runs {
		side := report.Side{Label: names[i], Profiles: analysis.Profiles(rs)}
		peers := analysis.NewPeers(rs)
		for _, run := range rs {
			side.Runs = append(side.Runs, input.DescribeShort(run))
			hist, err := r.History(run, 10)
			if err != nil {
				return err
			}
			f := analysis.Explain(run, analysis.ExplainOptions{Link: link, History: hist, Peers: peers})
			in.Findings = append(in.Findings, report.RunFindings{Run: input.DescribeShort(run), Findings: f})
			if fl := analysis.FleetOf(run, analysis.DefaultThresholds); fl != nil {
				in.Fleets = append(in.Fleets, report.Fleet{Run: input.DescribeShort(run), Fleet: fl})
			}
			if in.Link.Gbps == 0 {
				in.Link = analysis.RunLink(run.Run)
			}
		}
		in.Sides = append(in.Sides, side)
	}
	return nil
}
