package main

import (
	"flag"
	"io"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/report/text"
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
  -metric M       compare by t_avg_us, t_min_us, t_max_us, t_trimmed_us,
                  mbytes_per_sec or link_efficiency (bandwidth as a share of each
                  side's link) instead of each benchmark's primary number (or
                  t_trimmed_us where both sides have raw samples)
  -link-a RATE, -link-b RATE
                  the links of the two sides in Gb/s, for link_efficiency
                  (default: the links each run recorded)
  -alpha A        false discovery rate (0.05)
  -noise N        the launch-to-launch noise a size is held against when a side
                  has too few launches for the U test (0.15 = 15%); default:
                  measured over the archive's earlier runs of the side's system
                  (three or more; its system= label), else 15%
  -force          compare intra-node with inter-node runs (refused otherwise)
` + inputFlagsHelp + jsonHelp + `
Run each side 4-5 times: with fewer than 4 launches a side no difference can
be significant at 0.05; each size is then held against the launch-to-launch
noise (-noise) instead, and a difference beyond three times it is marked '!'.

Exit status: 0 compared, 2 bad input (unreadable runs, nothing in common,
intra- against inter-node without -force).

Examples:
  gomb compare base-*.jsonl vs xpmem-*.jsonl
  gomb compare 'system=hpc4 config=base last=5' 'system=hpc4 config=xpmem last=5'
  gomb compare -metric t_max_us old.log new.log
  gomb compare -metric link_efficiency -link-a 100 -link-b 200 edr.log hdr.log
`

func runCompare(stdout, stderr io.Writer, args []string) error {
	var in inputFlags
	fs := flag.NewFlagSet("gomb compare", flag.ContinueOnError)
	in.register(fs)
	fs.StringVar(&in.json, "json", "", "")
	metricName := fs.String("metric", "", "")
	alpha := alphaFlag(fs)
	noise := noiseFlag(fs)
	var linkA, linkB analysis.Link
	linkFlag(fs, "link-a", &linkA)
	linkFlag(fs, "link-b", &linkB)
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
	n, src := launchNoise(r, in.archive, *noise, ra, rb)
	c, err := analysis.Compare(sideName(a), ra, sideName(b), rb,
		analysis.CompareOptions{Metric: metric, Alpha: *alpha, Noise: n, NoiseSource: src, Force: *force, LinkA: linkA, LinkB: linkB})
	if err != nil {
		return usageErr("compare: %v", err)
	}
	if err := text.Comparison(in.text(stdout, stderr), c); err != nil {
		return err
	}
	return in.writeJSON(stdout, c, pos)
}
