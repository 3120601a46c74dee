package analysis

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// history: the run against the earlier runs of the same system,
// configuration and locality (ExplainOptions.History, from the archive):
// a WARNING where a benchmark is HistoryRatio times slower than its
// median over them, beyond their own spread and at adjacent sizes (check's
// rules: a lone size of one launch is noise); INFO where it is as much
// faster.
func history(in *explainInput) []Finding {
	th := in.th
	if len(in.history) < th.HistoryMinRuns {
		return nil
	}
	// HistoryRatio times slower: time up by ratio-1, bandwidth down by
	// 1-1/ratio (check's change is a fraction of the baseline)
	tol := Tolerances{Default: Tolerance{Band: -1, Rel: th.HistoryRatio - 1}}
	for _, s := range in.series {
		if s.metric.HigherIsBetter() {
			tol.List = append(tol.List, Tolerance{Benchmark: s.Benchmark, Band: -1, Rel: 1 - 1/th.HistoryRatio})
		}
	}
	res, err := Check(in.history, []*result.Bundle{in.run}, CheckOptions{Tolerances: tol, Force: true})
	if err != nil {
		return nil // nothing in common with its history
	}
	type hit struct {
		sizes       []int64
		worst       float64 // the largest factor, slower or faster
		at          int64
		base, value float64
		metric      Metric
	}
	worse, better := map[Series]*hit{}, map[Series]*hit{}
	var order []Series
	for _, x := range res.Rows {
		var m map[Series]*hit
		switch x.Verdict {
		case VerdictRegression:
			m = worse
		case VerdictBetter:
			m = better
		default:
			continue
		}
		s := x.Key.Series()
		if worse[s] == nil && better[s] == nil {
			order = append(order, s)
		}
		h := m[s]
		if h == nil {
			h = &hit{metric: x.Metric}
			m[s] = h
		}
		h.sizes = append(h.sizes, x.Key.Bytes)
		// how many times slower (time up, or bandwidth down) or faster
		base, value := float64(x.Base), float64(x.Value)
		r := value / base
		if x.Metric.HigherIsBetter() {
			r = base / value
		}
		if d := max(r, 1/r); d > h.worst {
			h.worst, h.at, h.base, h.value = d, x.Key.Bytes, base, value
		}
	}
	var out []Finding
	for _, s := range order {
		for _, c := range []struct {
			h    *hit
			word string
			sev  string
		}{{worse[s], "slower", Warning}, {better[s], "faster", Info}} {
			h := c.h
			if h == nil {
				continue
			}
			f := Finding{Kind: KindHistory, Severity: c.sev, Series: s, Sizes: h.sizes,
				Summary: fmt.Sprintf("%s: %.1f× %s than its median over the last %d runs of this system at %s", name(s), h.worst, c.word, len(in.history), sizes(h.sizes)),
				Numbers: []string{fmt.Sprintf("worst at %s: %s %s against a median of %s over %d earlier runs (%s)", Size(h.at), h.metric, num(h.metric, h.value), num(h.metric, h.base), len(in.history), strings.Join(labelsOf(in.history), ", "))}}
			if c.sev == Warning {
				f.Cause = "something changed since the earlier runs: the MPI library or its settings, firmware, the node's load or placement, a degraded link; compare the runs' provenance (gomb archive show) and rerun"
			} else {
				f.Cause = "an improvement since the earlier runs (a newer library, a tuned setting); if it was not intended, check that the runs are comparable"
			}
			out = append(out, f)
		}
	}
	return out
}

func num(m Metric, v float64) string {
	if m == BW {
		return mbps(v)
	}
	return us(v)
}

// labelsOf: the distinct system and config labels of runs.
func labelsOf(runs []*result.Bundle) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range runs {
		for _, k := range []string{"system", "config"} {
			if v := r.Run.Labels[k]; v != "" && !seen[k+"="+v] {
				seen[k+"="+v] = true
				out = append(out, k+"="+v)
			}
		}
	}
	return out
}
