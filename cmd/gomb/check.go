package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/report/junit"
	"github.com/gomb-hpc/gomb/internal/report/text"
)

func checkHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb check -baseline BASELINE [flags] RUN...",
		Intro: `Holds a run against a baseline, for CI and acceptance tests. A point
regresses when it moves the wrong way (time up, bandwidth down) by more than
both its tolerance and the baseline's own noise (3 x 1.4826 MAD over the
baseline's runs). The baseline is one run, or several — say the last ten of
a system and configuration ('system=hpc4 config=base last=10') — whose
median is the centre. Points in the baseline but not in the run are listed.

` + inputHelp,
		Groups: []cli.Group{{Title: "Flags:", Flags: slices.Concat([]string{"baseline", "tol", "metric", "link",
			"baseline-link", "force"}, inputFlagNames, []string{"json", "junit"})}},
		Outro: cli.ExitHelp([]int{0, cli.ExitRegression, cli.ExitUsage}, map[int]string{0: "no regression", cli.ExitRegression: "a regression (the table and the last lines say where)", cli.ExitUsage: "bad input"}),
		Examples: []string{
			"gomb check -baseline 'system=hpc4 config=base last=10' new.jsonl",
			"gomb check -baseline golden.jsonl -tol 10% -tol PingPong@0-32=0.3 -tol @512K-4M=3% run.jsonl",
			"gomb check -metric link_efficiency -baseline edr.log -baseline-link 100 -link 200 hdr.log",
			"mpirun -np 64 gomb imb -json run.jsonl Allreduce && gomb check -baseline ref.jsonl run.jsonl",
			"gomb check -baseline 'system=hpc4 last=10' -junit gomb-check.xml run.jsonl   # for the CI's test report",
		},
	}
}

// checkCmd is gomb check's command line.
type checkCmd struct {
	in                inputFlags
	baseline          string
	tols              analysis.Tolerances
	metric            string
	m                 analysis.Metric
	force             bool
	runLink, baseLink analysis.Link
	runs              []string
	junit             string
}

func newCheckCmd() *checkCmd {
	return &checkCmd{tols: analysis.DefaultTolerances()}
}

func checkFlagSet(c *checkCmd) *flag.FlagSet {
	fs := cli.NewFlagSet("check")
	fs.StringVar(&c.baseline, "baseline", "", "`B` the baseline runs (required)")
	tolFlag(fs, "`[BENCH][@BAND]=LIMIT` a tolerance (repeatable): LIMIT is a percentage of the baseline "+
		"or an amount in the metric's unit (0.2: µs for times, MB/s for bandwidth); BAND is 0-32, 64-4K, "+
		"8K-256K or 512K-4M. The most specific applies: BENCH@BAND, then BENCH, then @BAND, then the "+
		"default (default 5%)", &c.tols)
	fs.StringVar(&c.metric, "metric", "", "`M` check t_avg_us, t_min_us, t_max_us, t_trimmed_us, mbytes_per_sec "+
		"or link_efficiency (bandwidth as a share of the link) instead of each benchmark's primary number "+
		"(or t_trimmed_us where both sides have raw samples)")
	linkFlag(fs, "link", "`RATE` the link of the runs checked in Gb/s, for link_efficiency (default: the links they recorded)", &c.runLink)
	linkFlag(fs, "baseline-link", "`RATE` the link of the baseline in Gb/s, for link_efficiency (default: the links it recorded)", &c.baseLink)
	fs.BoolVar(&c.force, "force", false, "check intra-node against inter-node runs (refused otherwise)")
	c.in.register(fs)
	c.in.jsonFlag(fs)
	fs.StringVar(&c.junit, "junit", "", "`FILE` also write the verdicts as JUnit XML for CI test reports (GitLab, Jenkins, "+
		"Azure Pipelines, CircleCI): a test suite per benchmark and process count, a test case per size band, "+
		"failed where a size regressed ('-': stdout)")
	return fs
}

var checkUsage = helpWriter(checkHelp, checkFlagSet(newCheckCmd()))

func parseCheck(args []string) (*checkCmd, error) {
	c := newCheckCmd()
	pos, err := cli.ParseCommand(checkFlagSet(c), args)
	switch {
	case err != nil:
		return nil, err
	case c.baseline == "":
		return nil, cli.Usage("check: give -baseline ('gomb check -help')")
	case len(pos) == 0:
		return nil, cli.Usage("check: give the run to check")
	case c.junit == "-" && c.in.json == "-":
		return nil, cli.Usage("check: -json and -junit cannot both write to stdout")
	}
	if c.m, err = analysis.ParseMetric(c.metric); err != nil {
		return nil, cli.Usage("check: %v", err)
	}
	c.runs = pos
	return c, nil
}

func runCheck(stdout, stderr io.Writer, args []string) error {
	c, err := parseCheck(args)
	if err != nil {
		return helpOr(err, stdout, checkUsage)
	}
	if err := c.in.refuseJSONInput(c.runs, []string{c.baseline}); err != nil {
		return err
	}
	if err := cli.RefuseInput("-junit", c.junit, c.in.inputs(c.runs, []string{c.baseline})); err != nil {
		return err
	}
	if err := cli.Distinct([]cli.Named{{Flag: "-junit", Path: c.junit}, {Flag: "-json", Path: c.in.json}}, nil); err != nil {
		return err
	}
	r := c.in.resolver()
	defer r.Close()
	base, err := resolve(stderr, r, "-baseline", []string{c.baseline})
	if err != nil {
		return err
	}
	runs, err := resolve(stderr, r, "check", c.runs)
	if err != nil {
		return err
	}
	res, err := analysis.Check(base, runs, analysis.CheckOptions{Tolerances: c.tols, Metric: c.m, Force: c.force,
		BaseLink: c.baseLink, RunLink: c.runLink})
	if err != nil {
		return cli.Usage("check: %v", err)
	}
	tw := c.in.text(stdout, stderr)
	if c.junit == "-" {
		tw = stderr // stdout holds the XML
	}
	if err := text.Check(tw, res); err != nil {
		return err
	}
	if err := c.in.writeJSON(stdout, res, c.runs, []string{c.baseline}); err != nil {
		return err
	}
	if c.junit != "" {
		err := cli.WriteOutput(stdout, "-junit", c.junit, c.in.inputs(c.runs, []string{c.baseline}), func(w io.Writer) error {
			return junit.Check(w, res, junit.Options{Name: "gomb check " + strings.Join(c.runs, " "), Time: time.Now()})
		})
		if err != nil {
			return err
		}
	}
	if res.Regressions > 0 {
		return &cli.ExitError{Code: cli.ExitRegression, Err: fmt.Errorf("check: %d regressions", res.Regressions)}
	}
	return nil
}
