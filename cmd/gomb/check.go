package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/report/text"
)

const checkUsageText = `Usage: gomb check -baseline BASELINE [flags] RUN...

Holds a run against a baseline, for CI and acceptance tests. A point
regresses when it moves the wrong way (time up, bandwidth down) by more than
both its tolerance and the baseline's own noise (3 x 1.4826 MAD over the
baseline's runs). The baseline is one run, or several — say the last ten of
a system and configuration ('system=hpc4 config=base last=10') — whose
median is the centre. Points in the baseline but not in the run are listed.

` + inputHelp + `

Flags:
  -baseline B     the baseline runs (required)
  ` + analysis.ToleranceHelp + `
                  Default 5%.
  -metric M       check t_avg_us, t_min_us, t_max_us, t_trimmed_us,
                  mbytes_per_sec or link_efficiency (bandwidth as a share of the
                  link) instead of each benchmark's primary number (or
                  t_trimmed_us where both sides have raw samples)
  -link RATE, -baseline-link RATE
                  the links link_efficiency is taken against, in Gb/s (default:
                  the links each run recorded)
  -force          check intra-node against inter-node runs (refused otherwise)
` + inputFlagsHelp + jsonHelp + `
Exit status: 0 no regression, 4 a regression (the table and the last lines
say where), 2 bad input.

Examples:
  gomb check -baseline 'system=hpc4 config=base last=10' new.jsonl
  gomb check -baseline golden.jsonl -tol 10% -tol PingPong@0-32=0.3 -tol @512K-4M=3% run.jsonl
  gomb check -metric link_efficiency -baseline edr.log -baseline-link 100 -link 200 hdr.log
  mpirun -np 64 gomb imb -json run.jsonl Allreduce && gomb check -baseline ref.jsonl run.jsonl
`

// exitRegression is check's status for a regression.
const exitRegression = 4

func runCheck(stdout, stderr io.Writer, args []string) error {
	var in inputFlags
	fs := flag.NewFlagSet("gomb check", flag.ContinueOnError)
	in.register(fs)
	fs.StringVar(&in.json, "json", "", "")
	baseline := fs.String("baseline", "", "")
	tols := analysis.Tolerances{Default: analysis.Tolerance{Band: -1, Rel: 0.05}}
	fs.Func("tol", "", func(s string) error {
		t, err := analysis.ParseTolerance(s)
		if err != nil {
			return err
		}
		if t.Benchmark == "" && t.Band < 0 {
			tols.Default = t
		} else {
			tols.List = append(tols.List, t)
		}
		return nil
	})
	metricName := fs.String("metric", "", "")
	force := fs.Bool("force", false, "")
	var runLink, baseLink analysis.Link
	linkFlag(fs, "link", &runLink)
	linkFlag(fs, "baseline-link", &baseLink)
	pos, err := parseCommand(stdout, fs, checkUsageText, args)
	if err != nil {
		return helpDone(err)
	}
	if *baseline == "" {
		return usageErr("check: give -baseline ('gomb check -help')")
	}
	if len(pos) == 0 {
		return usageErr("check: give the run to check")
	}
	metric, err := analysis.ParseMetric(*metricName)
	if err != nil {
		return usageErr("check: %v", err)
	}
	if err := in.refuseJSONInput(pos, []string{*baseline}); err != nil {
		return err
	}
	r := in.resolver()
	defer r.Close()
	base, err := resolve(stderr, r, "-baseline", []string{*baseline})
	if err != nil {
		return err
	}
	runs, err := resolve(stderr, r, "check", pos)
	if err != nil {
		return err
	}
	res, err := analysis.Check(base, runs, analysis.CheckOptions{Tolerances: tols, Metric: metric, Force: *force,
		BaseLink: baseLink, RunLink: runLink})
	if err != nil {
		return usageErr("check: %v", err)
	}
	if err := text.Check(in.text(stdout, stderr), res); err != nil {
		return err
	}
	if err := in.writeJSON(stdout, res, pos, []string{*baseline}); err != nil {
		return err
	}
	if res.Regressions > 0 {
		return &exitError{code: exitRegression, err: fmt.Errorf("check: %d regressions", res.Regressions)}
	}
	return nil
}
