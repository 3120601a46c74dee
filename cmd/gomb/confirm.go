package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// confirmFlags are gomb imb's -baseline, -confirm and -tol: the check
// that runs inside the measuring job.
type confirmFlags struct {
	baseline string
	n        int
	tols     analysis.Tolerances
}

// confirmFlagNames are the flags confirmFlags registers, in help order.
var confirmFlagNames = []string{"baseline", "confirm", "tol"}

func (f *confirmFlags) register(fs *flag.FlagSet) {
	f.tols = analysis.DefaultTolerances()
	fs.StringVar(&f.baseline, "baseline", "", "`B` check every benchmark against baseline B (files, archive ids or a "+
		"selection, as gomb check's) as soon as it has run, and exit as gomb check does (4: a regression)")
	fs.IntVar(&f.n, "confirm", 2, "`N` with -baseline, re-run a benchmark that tripped the baseline N more times "+
		"in the same job and decide on the median of its runs; every run is kept in the records")
	tolFlag(fs, "`[BENCH][@BAND]=LIMIT` with -baseline, a tolerance as gomb check's -tol (repeatable; default 5%)", &f.tols)
}

// check refuses flags that make no sense together.
func (f *confirmFlags) check(set map[string]bool) error {
	switch {
	case set["baseline"] && strings.TrimSpace(f.baseline) == "":
		// an empty variable in a CI script must not pass as a check
		return cli.Usage("-baseline is empty: give the baseline runs (files, archive ids or a selection)")
	case f.baseline == "" && (set["confirm"] || set["tol"]):
		return cli.Usage("-confirm and -tol need -baseline")
	case f.n < 0 || f.n > 10:
		return cli.Usage("-confirm %d: want 0 to 10 re-runs", f.n)
	}
	return nil
}

// confirmer runs the check between benchmarks. Everything but the
// decision to re-run (broadcast) lives on rank 0.
type confirmer struct {
	s     *session.Session
	flags confirmFlags
	text  *imbtext.Writer
	run   *result.Run
	base  []*result.Bundle
	// what rank 0 measured, every repeat; repeat is the one running now
	results []*result.Result
	repeat  int
	// the final check, for the exit status
	res *analysis.CheckResult
	// grow, on rank 0, tells the progress line a benchmark runs again
	grow func(s *imb.Spec)
}

// newConfirmer resolves the baseline on rank 0 (nil without -baseline);
// a baseline that cannot be read is a usage error on every rank.
func newConfirmer(s *session.Session, f confirmFlags) (*confirmer, error) {
	if f.baseline == "" {
		return nil, nil
	}
	c := &confirmer{s: s, flags: f}
	err := s.Agree(func() string {
		path, _ := archive.Resolve("")
		r := &input.Resolver{Archive: path}
		defer r.Close()
		base, err := r.Resolve(input.Items([]string{f.baseline}))
		if err != nil {
			return "-baseline: " + err.Error()
		}
		c.base = base
		return ""
	})
	return c, err
}

// result stamps a row with the repeat it belongs to and keeps it.
func (c *confirmer) result(r *result.Result) {
	r.Repeat = c.repeat
	c.results = append(c.results, r)
}

// after decides, once benchmark s has run, whether it runs again: its
// first run tripped the baseline (a regression, or a size beyond the
// limit), and it has run fewer than 1 + N times.
func (c *confirmer) after(s *imb.Spec, repeat int) (bool, error) {
	again := 0
	if err := c.s.OnRoot(func() error {
		if repeat >= c.flags.n {
			return nil
		}
		if repeat > 0 {
			again = 1
			return nil
		}
		if why := c.tripped(s); why != "" {
			again = 1
			return c.s.Locked(func() error { return c.text.Confirm(s.Name, why, 1, c.flags.n) })
		}
		return nil
	}); err != nil {
		return false, err
	}
	v, err := c.s.World.MaxInt(again)
	if err != nil {
		return false, err
	}
	c.repeat = 0
	if v > 0 {
		c.repeat = repeat + 1
		if c.grow != nil {
			c.grow(s)
		}
		if repeat > 0 && c.s.Rank == 0 {
			if err := c.s.Locked(func() error { return c.text.Confirm(s.Name, "continued", c.repeat, c.flags.n) }); err != nil {
				return false, err
			}
		}
	}
	return v > 0, nil
}

// tripped names the sizes where benchmark s's first run is beyond the
// baseline's limit ("" for none, or no baseline for s).
func (c *confirmer) tripped(s *imb.Spec) string {
	var mine []*result.Result
	for _, r := range c.results {
		if r.Benchmark == s.Name && r.Repeat == 0 {
			mine = append(mine, r)
		}
	}
	res, err := analysis.Check(c.base, []*result.Bundle{{Run: c.run, Results: mine}},
		analysis.CheckOptions{Tolerances: c.flags.tols})
	if err != nil {
		return ""
	}
	var at []string
	for _, x := range res.Rows {
		if x.Key.Benchmark == s.Name && (x.Verdict == analysis.VerdictRegression || x.Verdict == analysis.VerdictUnconfirmed) {
			at = append(at, fmt.Sprintf("%s %+.1f%%", analysis.Size(x.Key.Bytes), 100*x.Change))
		}
	}
	if len(at) > 4 {
		at = append(at[:4], fmt.Sprintf("%d more", len(at)-4))
	}
	return strings.Join(at, ", ")
}

// verdict checks the whole run, every repeat of a benchmark together
// (within a run the median of a size's rows counts), and writes the check
// table after the IMB text, on rank 0.
func (c *confirmer) verdict(w io.Writer) error {
	res, err := analysis.Check(c.base, []*result.Bundle{{Run: c.run, Results: c.results}},
		analysis.CheckOptions{Tolerances: c.flags.tols})
	if err != nil {
		return cli.Usage("-baseline: %v", err)
	}
	c.res = res
	fmt.Fprintf(w, "\n# gomb check against -baseline %s (re-runs: -confirm %d; a size's median over its runs)\n", c.flags.baseline, c.flags.n)
	return text.Check(w, res)
}

// regressions are the final check's, agreed by every rank.
func (c *confirmer) regressions() (int, error) {
	n := 0
	if c.res != nil {
		n = c.res.Regressions
	}
	return c.s.World.MaxInt(n)
}
