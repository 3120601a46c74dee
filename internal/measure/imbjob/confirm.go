package imbjob

import (
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

// Confirm is the check that runs inside the measuring job: gomb imb's
// -baseline, -confirm and -tol.
type Confirm struct {
	Baseline string              // the baseline runs, as gomb check takes them ("": no check)
	N        int                 // re-runs of a benchmark that tripped the baseline
	Tols     analysis.Tolerances // as gomb check's -tol
}

// confirmer runs the check between benchmarks. Everything but the
// decision to re-run (broadcast) lives on rank 0.
type confirmer struct {
	s     *session.Session
	flags Confirm
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
func newConfirmer(s *session.Session, f Confirm) (*confirmer, error) {
	if f.Baseline == "" {
		return nil, nil
	}
	c := &confirmer{s: s, flags: f}
	err := s.Agree(func() string {
		path, _ := archive.Resolve("")
		r := &input.Resolver{Archive: path}
		defer r.Close()
		base, err := r.Resolve(input.Items([]string{f.Baseline}))
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
		if repeat >= c.flags.N {
			return nil
		}
		if repeat > 0 {
			again = 1
			return nil
		}
		if why := c.tripped(s); why != "" {
			again = 1
			return c.s.Locked(func() error { return c.text.Confirm(s.Name, why, 1, c.flags.N) })
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
			if err := c.s.Locked(func() error { return c.text.Confirm(s.Name, "continued", c.repeat, c.flags.N) }); err != nil {
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
		analysis.CheckOptions{Tolerances: c.flags.Tols})
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
		analysis.CheckOptions{Tolerances: c.flags.Tols})
	if err != nil {
		return cli.Usage("-baseline: %v", err)
	}
	c.res = res
	fmt.Fprintf(w, "\n# gomb check against -baseline %s (re-runs: -confirm %d; a size's median over its runs)\n", c.flags.Baseline, c.flags.N)
	return text.Check(w, res)
}

// then ends the job with exit status 4 when the final check, agreed by
// every rank, found a regression.
func (c *confirmer) then() error {
	n := 0
	if c.res != nil {
		n = c.res.Regressions
	}
	n, err := c.s.World.MaxInt(n)
	if err != nil {
		return err
	}
	if n > 0 {
		return &cli.ExitError{Code: cli.ExitRegression, Err: fmt.Errorf("-baseline: %d regressions (the check table above says where)", n)}
	}
	return nil
}
