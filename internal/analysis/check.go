package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Tolerance is how far a value may move the wrong way before it counts as
// a regression: a fraction of the baseline (Rel) or an amount in the
// metric's unit (Abs, µs or MB/s), for one benchmark and/or size band or
// for everything.
type Tolerance struct {
	Benchmark string  `json:"benchmark"` // "" for every benchmark
	Band      int     `json:"band"`      // index in Bands, -1 for every size
	Rel       float64 `json:"rel"`
	Abs       float64 `json:"abs"`
}

// String writes the tolerance as -tol takes it.
func (t Tolerance) String() string {
	v := strconv.FormatFloat(t.Rel*100, 'g', -1, 64) + "%"
	if t.Abs > 0 {
		v = strconv.FormatFloat(t.Abs, 'g', -1, 64)
	}
	scope := t.Benchmark
	if t.Band >= 0 {
		scope += "@" + Bands[t.Band].Label
	}
	if scope == "" {
		return v
	}
	return scope + "=" + v
}

var bandNames = map[string]int{"0-32": 0, "64-4k": 1, "8k-256k": 2, "512k-4m": 3}

// ParseTolerance reads "5%", "0.2", "PingPong=10%", "@512K-4M=3%" or
// "Allreduce@8K-256K=0.5".
func ParseTolerance(s string) (Tolerance, error) {
	t := Tolerance{Band: -1}
	scope, val, ok := strings.Cut(s, "=")
	if !ok {
		scope, val = "", s
	}
	bench, band, hasBand := strings.Cut(scope, "@")
	t.Benchmark = bench
	if hasBand {
		key := strings.NewReplacer(" ", "", "ib", "", "b", "").Replace(strings.ToLower(band))
		i, ok := bandNames[key]
		if !ok {
			return t, fmt.Errorf("tolerance %q: unknown size band %q (0-32, 64-4K, 8K-256K, 512K-4M)", s, band)
		}
		t.Band = i
	}
	var err error
	if p, isPct := strings.CutSuffix(val, "%"); isPct {
		t.Rel, err = strconv.ParseFloat(p, 64)
		t.Rel /= 100
	} else {
		t.Abs, err = strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(val, "us"), "MB/s"), 64)
	}
	if err != nil || t.Rel < 0 || t.Abs < 0 || math.IsNaN(t.Rel+t.Abs) || math.IsInf(t.Rel+t.Abs, 0) {
		return t, fmt.Errorf("tolerance %q: want a percentage (5%%) or an amount (0.2)", s)
	}
	return t, nil
}

// Tolerances pick the tolerance of a key.
type Tolerances struct {
	Default Tolerance   `json:"default"`
	List    []Tolerance `json:"list"`
}

// For finds the most specific tolerance for a benchmark and size; bench
// may name a mode ("Unidir_Put (aggregate)"), which a tolerance for the
// benchmark alone covers.
func (ts Tolerances) For(bench string, bytes int64) Tolerance {
	band := BandOf(bytes)
	best, score := ts.Default, 0
	for _, t := range ts.List {
		s := 0
		switch {
		case t.Benchmark != "" && !strings.EqualFold(t.Benchmark, bench) && !strings.EqualFold(t.Benchmark, result.BaseName(bench)):
			continue
		case t.Band >= 0 && t.Band != band:
			continue
		case t.Benchmark != "" && t.Band >= 0:
			s = 3
		case t.Benchmark != "":
			s = 2
		case t.Band >= 0:
			s = 1
		}
		if s >= score {
			best, score = t, s
		}
	}
	return best
}

// DefaultTolerances allow 5% everywhere, gomb check's default.
func DefaultTolerances() Tolerances { return Tolerances{Default: Tolerance{Band: -1, Rel: 0.05}} }

// CheckOptions tune a check.
type CheckOptions struct {
	Tolerances Tolerances `json:"tolerances"`
	Metric     Metric     `json:"metric"` // "" for each benchmark's primary metric
	Force      bool       `json:"force"`  // check intra-node against inter-node
	// BaseLink and RunLink are the links link_efficiency is taken against
	// (zero: each run's recorded link).
	BaseLink Link `json:"base_link"`
	RunLink  Link `json:"run_link"`
}

// Verdicts of a check.
const (
	VerdictOK         = "ok"
	VerdictRegression = "REGRESSION"
	// VerdictUnconfirmed: beyond the limit at one size only, in one
	// launch: a spike until a neighbouring size or another launch shows
	// it too (not a regression; rerun to confirm).
	VerdictUnconfirmed = "unconfirmed"
	VerdictBetter      = "better"
	VerdictMissing     = "missing"
)

// CheckRow is one key of a check.
type CheckRow struct {
	Key    Key    `json:"key"`
	Metric Metric `json:"metric"`
	// Base is the baseline's centre (the median of its runs) and Spread
	// its noise (1.4826 × MAD, 0 with fewer than 3 runs); Runs counts them.
	Base     Float `json:"base"`
	Spread   Float `json:"spread"`
	BaseRuns int   `json:"base_runs"`
	// Value is the checked run's value (median of its runs); NaN if the
	// run lacks the key. Values are its runs' values, one a launch.
	Value  Float   `json:"value"`
	Values []Float `json:"values"`
	// Change is the move the wrong way, as a fraction of Base (> 0:
	// worse); Allowed the larger of the tolerance and 3 × Spread, also a
	// fraction of Base.
	Change    Float     `json:"change"`
	Allowed   Float     `json:"allowed"`
	Tolerance Tolerance `json:"tolerance"`
	Verdict   string    `json:"verdict"`
}

// CheckResult is a run held against a baseline.
type CheckResult struct {
	Rows        []CheckRow `json:"rows"`
	Regressions int        `json:"regressions"`
	Unconfirmed int        `json:"unconfirmed"` // beyond the limit at one size in one launch`
	Missing     int        `json:"missing"`
	Warnings    []string   `json:"warnings"`
}

// Check holds runs against a baseline: a regression is a move the wrong
// way (time up, bandwidth down) beyond both the tolerance and the
// baseline's own noise, that persists: at a neighbouring size of the same
// benchmark too, or in every one of two launches or more of the run. A
// lone size of one launch beyond the limit is unconfirmed: one launch is
// one draw, and a shared-memory launch's 0-byte row has come out at 3.9×
// its baseline on this project's test machine with nothing wrong.
func Check(base, runs []*result.Bundle, o CheckOptions) (*CheckResult, error) {
	tol, metric := o.Tolerances, o.Metric
	lb, lr := Locality(base), Locality(runs)
	if !o.Force && (lb == result.Mixed || lr == result.Mixed || lb != "" && lr != "" && lb != lr) {
		return nil, fmt.Errorf("the baseline is %s, the run %s: intra-node and inter-node results do not compare (-force to check anyway)", dashed(lb), dashed(lr))
	}
	ob, or, used := observePair(base, runs, metric, o.BaseLink, o.RunLink)
	res := &CheckResult{}
	for _, k := range Keys(ob) {
		bv := values(ob[k])
		base, spread := stats.Median(bv), 0.0
		if len(bv) >= 3 {
			spread = stats.MAD(bv)
		}
		t := tol.For(k.Benchmark, k.Bytes)
		allowed := math.Max(math.Max(t.Rel, t.Abs/base), 3*spread/base)
		row := CheckRow{Key: k, Metric: used[k], Base: Float(base), Spread: Float(spread), BaseRuns: len(bv),
			Value: Float(math.NaN()), Tolerance: t, Allowed: Float(allowed)}
		ps, ok := or[k]
		if !ok {
			row.Verdict = VerdictMissing
			res.Missing++
			res.Rows = append(res.Rows, row)
			continue
		}
		vs := values(ps)
		row.Values = floats(vs)
		row.Value = Float(stats.Median(vs))
		row.Change = Float(row.changeAt(float64(row.Value)))
		switch {
		case row.Change > row.Allowed:
			row.Verdict = VerdictRegression
			res.Regressions++
		case -row.Change > row.Allowed:
			row.Verdict = VerdictBetter
		default:
			row.Verdict = VerdictOK
		}
		res.Rows = append(res.Rows, row)
	}
	confirm(res)
	if len(res.Rows) == res.Missing {
		return nil, fmt.Errorf("the run has no benchmark, process count and size of the baseline")
	}
	if n := len(base); n < 3 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the baseline has %d run(s): its noise is unknown, only the tolerance applies (a baseline from the last 5-10 runs of a system knows its spread)", n))
	}
	return res, nil
}

// changeAt is the move the wrong way of a value v against the row's
// baseline, as a fraction of it (> 0: worse).
func (x CheckRow) changeAt(v float64) float64 {
	c := (v - float64(x.Base)) / float64(x.Base)
	if x.Metric.HigherIsBetter() {
		c = -c
	}
	return c
}

// confirm turns regressions that do not persist into unconfirmed ones: a
// regression stands when the size next to it (same benchmark and process
// count) regressed too, or when the run has two launches or more and
// each of them is beyond the limit.
func confirm(res *CheckResult) {
	regressed := func(i int) bool { return i >= 0 && i < len(res.Rows) && res.Rows[i].Verdict == VerdictRegression }
	var lone []int
	for i, x := range res.Rows {
		if x.Verdict != VerdictRegression {
			continue
		}
		s := x.Key.Series()
		next := regressed(i-1) && res.Rows[i-1].Key.Series() == s || regressed(i+1) && res.Rows[i+1].Key.Series() == s
		every := len(x.Values) >= 2
		for _, v := range x.Values {
			every = every && x.changeAt(float64(v)) > float64(x.Allowed)
		}
		if !next && !every {
			lone = append(lone, i)
		}
	}
	for _, i := range lone {
		res.Rows[i].Verdict = VerdictUnconfirmed
		res.Regressions--
		res.Unconfirmed++
	}
}
