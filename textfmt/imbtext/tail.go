package imbtext

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// IMB's -show_tail prints, under a table's row, the tail of that size's
// repetitions: percentiles and the slowest one, each a label and a time
// ("# tail: p50 = 1.21 p90 = 1.40 p99 = 3.02 max = 120.33 usec"; IMB's
// public sources, intel/mpi-benchmarks at every tag to 2021.11, hold no
// such option, so the reader takes the shapes such a line can have: the
// labels p50, 50%, 50th, median, max; ':' or '=' or a blank before the
// value; a unit after it; '#' or not before it). The values go to the
// row's record as result.Tail (max as percentile 100), which explain
// reads; a percentile that is no whole number (99.9) has no place in it.

var tailPair = regexp.MustCompile(`(?i)(?:^|[\s,;(])(p[0-9]{1,2}(?:\.[0-9]+)?|[0-9]{1,2}(?:\.[0-9]+)?(?:%|th)|median|max(?:imum)?)\s*[:=]?\s*([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)`)

// tailLine reads a -show_tail line: its percentiles, or nil for a line
// that is none (two pairs at least, one a percentile).
func tailLine(line string) []result.Tail {
	if !strings.ContainsAny(line, "pP%thTmM") {
		return nil
	}
	var out []result.Tail
	percentile := false
	for _, m := range tailPair.FindAllStringSubmatch(line, -1) {
		v, err := textfmt.Value([]byte(m[2]))
		if err != nil {
			return nil
		}
		label := strings.ToLower(m[1])
		var p int
		switch {
		case strings.HasPrefix(label, "max"):
			p = 100
		case label == "median":
			p, percentile = 50, true
		default:
			label = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(label, "p"), "%"), "th")
			if p, err = strconv.Atoi(label); err != nil || p < 1 || p > 99 {
				continue // 99.9: no whole percentile
			}
			percentile = true
		}
		out = append(out, result.Tail{P: p, Value: v})
	}
	if len(out) < 2 || !percentile {
		return nil
	}
	return out
}
