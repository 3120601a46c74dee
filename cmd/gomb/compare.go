package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/analysis"
	"github.com/gomb-hpc/gomb/input"
	antext "github.com/gomb-hpc/gomb/textfmt/analysis"
)

const compareUsageText = `Usage: gomb compare [flags] A B
       gomb compare [flags] A... vs B...

Sets B against A size by size: the median of each side's runs, how much
faster B is (the speed multiplier, higher = faster) with its 95% interval,
and whether the difference is significant — a Mann-Whitney U test with each
launch one observation, corrected for comparing many sizes at once
(Benjamini-Hochberg). Then the geometric mean per benchmark and the speed
multiplier by size band (0-32 B, 64 B-4 KiB, 8-256 KiB, 512 KiB-4 MiB).
Each benchmark is compared by the number its table leads with: t[usec]
(the slower rank) for PingPong and PingPing, t_avg for the other IMB
benchmarks and OSU's latencies, MB/s for OSU's bandwidth tests.

` + inputHelp + `

Flags:
  -metric M       compare by t_avg_us, t_min_us, t_max_us or mbytes_per_sec instead
  -alpha A        false discovery rate (0.05)
  -force          compare intra-node with inter-node runs (refused otherwise)
` + inputFlagsHelp + jsonHelp + `
Run each side 4-5 times: with fewer than 4 launches a side no difference can
be significant at 0.05 (the table says so).

Exit status: 0 compared, 2 bad input (unreadable runs, nothing in common,
intra- against inter-node without -force).

Examples:
  gomb compare base-*.jsonl vs xpmem-*.jsonl
  gomb compare 'system=hpc4 config=base last=5' 'system=hpc4 config=xpmem last=5'
  gomb compare -metric t_max_us old.log new.log
`

func runCompare(stdout, stderr io.Writer, args []string) error {
	var in inputFlags
	fs := flag.NewFlagSet("gomb compare", flag.ContinueOnError)
	in.register(fs)
	fs.StringVar(&in.json, "json", "", "")
	metricName := fs.String("metric", "", "")
	alpha := alphaFlag(fs)
	force := fs.Bool("force", false, "")
	pos, err := parseCommand(stdout, fs, compareUsageText, args)
	if err != nil {
		return helpDone(err)
	}
	metric, err := analysis.ParseMetric(*metricName)
	if err != nil {
		return usageErr("compare: %v", err)
	}
	a, b, err := splitSides(pos)
	if err != nil {
		return err
	}
	if err := in.refuseJSONInput(pos); err != nil {
		return err
	}
	r := in.resolver()
	defer r.Close()
	ra, err := resolve(stderr, r, "A", a)
	if err != nil {
		return err
	}
	rb, err := resolve(stderr, r, "B", b)
	if err != nil {
		return err
	}
	c, err := analysis.Compare(sideName(a), ra, sideName(b), rb,
		analysis.CompareOptions{Metric: metric, Alpha: *alpha, Force: *force})
	if err != nil {
		return usageErr("compare: %v", err)
	}
	if err := antext.Comparison(in.text(stdout, stderr), c); err != nil {
		return err
	}
	return in.writeJSON(stdout, c, pos)
}

// sideName names a side by what the user gave, the first few items of a
// long list (a glob) with a count.
func sideName(items []string) string {
	its := input.Items(items)
	if len(its) > 3 {
		return fmt.Sprintf("%s, %s ... (%d items)", its[0], its[1], len(its))
	}
	return strings.Join(its, " ")
}

// splitSides cuts "A B" or "A... vs B...".
func splitSides(pos []string) (a, b []string, err error) {
	for i, p := range pos {
		if p == "vs" {
			a, b = pos[:i], pos[i+1:]
			if len(a) == 0 || len(b) == 0 {
				return nil, nil, usageErr("compare: runs on both sides of 'vs'")
			}
			return a, b, nil
		}
	}
	if len(pos) != 2 {
		return nil, nil, usageErr("compare: give two sides, A B or A... vs B... ('gomb compare -help')")
	}
	return pos[:1], pos[1:], nil
}

// alphaFlag registers -alpha, the false discovery rate of compare and
// report: a number strictly between 0 and 1.
func alphaFlag(fs *flag.FlagSet) *float64 {
	alpha := 0.05
	fs.Func("alpha", "", func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0 && v < 1) {
			return fmt.Errorf("want a false discovery rate between 0 and 1 (0.05), got %q", s)
		}
		alpha = v
		return nil
	})
	return &alpha
}
