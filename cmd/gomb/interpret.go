package main

// What compare, check, explain and report share: reading the runs a user
// names (files, archive run ids, selections) and their common flags.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/result"
)

// inputHelp describes how runs are named, in each command's usage.
const inputHelp = `Runs are named by gomb record files, IMB/OSU/mpi-comm-bench logs (read as
gomb import does), archive run ids, or archive selections (KEY=VALUE words:
system=hpc4 config=xpmem last=5 ...; see 'gomb archive -help'). Several in
one argument are separated by commas or blanks.`

// inputFlags are the flags every interpreting command takes.
type inputFlags struct {
	archive string
	json    string
	opt     importer.Options
}

// inputFlagNames are the flags inputFlags registers, in help order.
var inputFlagNames = []string{"archive", "np", "locality"}

func (f *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.archive, "archive", "", "`PATH|URL` the archive for run ids and selections: an SQLite file or a postgres:// URL (default $GOMB_ARCHIVE, else ~/.local/share/gomb/archive.db)")
	logFlags(fs, &f.opt)
}

// jsonFlag registers -json, which compare, check and explain take.
func (f *inputFlags) jsonFlag(fs *flag.FlagSet) {
	fs.StringVar(&f.json, "json", "", "`FILE` also write the result as JSON ('-': stdout, and the table then goes to stderr); a value that does not exist is null")
}

func (f *inputFlags) resolver() *input.Resolver {
	path, _ := archive.Resolve(f.archive) // none: ids and selections say so
	return &input.Resolver{Archive: path, Options: f.opt}
}

// linkFlag registers -NAME RATE (Gb/s).
func linkFlag(fs *flag.FlagSet, name, usage string, link *analysis.Link) {
	fs.Func(name, usage, func(s string) error {
		g, err := analysis.ParseLink(s)
		*link = analysis.Link{Gbps: g, Source: "-" + name}
		return err
	})
}

// resolve reads one side's runs and reports malformed log lines.
func resolve(stderr io.Writer, r *input.Resolver, what string, items []string) ([]*result.Bundle, error) {
	runs, err := r.Resolve(input.Items(items))
	for _, w := range r.Warnings {
		fmt.Fprintln(stderr, w)
	}
	input.PrintProblems(stderr, r.Problems)
	r.Problems, r.Warnings = nil, nil
	if err != nil {
		if errors.As(err, new(*input.ArchiveError)) {
			return nil, cli.Usage("%v", err)
		}
		return nil, cli.Usage("%s: %v", what, err)
	}
	return runs, nil
}

// text is where the text goes: stdout, or stderr when -json - takes stdout.
func (f *inputFlags) text(stdout, stderr io.Writer) io.Writer {
	if f.json == "-" {
		return stderr
	}
	return stdout
}

// writeJSON writes v to -json's file, if asked; a float without a value
// (an empty band, a missing size) is null. items are what the command read:
// its files and the archive are no place for it.
func (f *inputFlags) writeJSON(stdout io.Writer, v any, items ...[]string) error {
	if f.json == "" {
		return nil
	}
	return cli.WriteOutput(stdout, "-json", f.json, f.inputs(items...), func(w io.Writer) error {
		return text.WriteJSON(w, v)
	})
}

// refuseJSONInput fails early when -json names one of the inputs.
func (f *inputFlags) refuseJSONInput(items ...[]string) error {
	return cli.RefuseInput("-json", f.json, f.inputs(items...))
}

// inputs are the files a command reads: the items that name files and the
// archive.
func (f *inputFlags) inputs(items ...[]string) []string {
	var in []string
	for _, its := range items {
		in = append(in, input.Items(its)...)
	}
	if p, err := archive.Resolve(f.archive); err == nil {
		in = append(in, p)
	}
	return in
}

// splitSides cuts "A B" or "A... vs B...".
func splitSides(pos []string) (a, b []string, err error) {
	for i, p := range pos {
		if p == "vs" {
			a, b = pos[:i], pos[i+1:]
			if len(a) == 0 || len(b) == 0 {
				return nil, nil, cli.Usage("compare: runs on both sides of 'vs'")
			}
			return a, b, nil
		}
	}
	if len(pos) != 2 {
		return nil, nil, cli.Usage("compare: give two sides, A B or A... vs B... ('gomb compare -help')")
	}
	return pos[:1], pos[1:], nil
}

// compareFlags are what compare and report share: how sides are compared.
type compareFlags struct {
	metric string
	m      analysis.Metric // metric, once parsed
	alpha  float64
	noise  float64 // 0: not given
	force  bool
}

// compareFlagNames are the flags compareFlags registers, in help order.
var compareFlagNames = []string{"metric", "alpha", "noise", "force"}

func (c *compareFlags) register(fs *flag.FlagSet) {
	c.alpha = 0.05
	fs.StringVar(&c.metric, "metric", "", "`M` compare by t_avg_us, t_min_us, t_max_us, t_trimmed_us, "+
		"mbytes_per_sec or link_efficiency (bandwidth as a share of each side's link) instead of each "+
		"benchmark's primary number (or t_trimmed_us where both sides have raw samples)")
	fs.Func("alpha", "`A` false discovery rate (default 0.05)", func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0 && v < 1) {
			return fmt.Errorf("want a false discovery rate between 0 and 1 (0.05), got %q", s)
		}
		c.alpha = v
		return nil
	})
	fs.Func("noise", "`N` the launch-to-launch noise a size is held against when a side has too few "+
		"launches for the U test (0.15 = 15%); default: measured over the archive's earlier runs of the "+
		"side's system (three or more; its system= label), else 15%", func(s string) error {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if strings.HasSuffix(s, "%") {
			v /= 100
		}
		if err != nil || !(v > 0 && v < 10) {
			return fmt.Errorf("want the noise of one launch as a fraction or a percentage (0.15, 15%%), got %q", s)
		}
		c.noise = v
		return nil
	})
	fs.BoolVar(&c.force, "force", false, "compare intra-node with inter-node runs (refused otherwise)")
}

// parseMetric checks -metric (a usage error of command cmd).
func (c *compareFlags) parseMetric(cmd string) (err error) {
	if c.m, err = analysis.ParseMetric(c.metric); err != nil {
		return cli.Usage("%s: %v", cmd, err)
	}
	return nil
}

// options are the comparison's options for these flags, with the noise
// resolved against the archive.
func (c *compareFlags) options(r *input.Resolver, sides ...[]*result.Bundle) analysis.CompareOptions {
	n, src := r.LaunchNoise(c.noise, sides...)
	return analysis.CompareOptions{Metric: c.m, Alpha: c.alpha, Noise: n, NoiseSource: src, Force: c.force}
}

// tolFlag registers -tol, a tolerance (repeatable) as gomb check reads it:
// one without benchmark or band replaces the default.
func tolFlag(fs *flag.FlagSet, usage string, tols *analysis.Tolerances) {
	fs.Func("tol", usage, func(s string) error {
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
}
