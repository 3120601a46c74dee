package main

import (
	"flag"
	"io"
	"slices"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report/text"
)

func compareHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb compare [flags] A B\ngomb compare [flags] A... vs B...",
		Intro: `Sets B against A size by size: the median of each side's runs, how much
faster B is (the speed multiplier, higher = faster) with its 95% interval,
and whether the difference is significant — a Mann-Whitney U test with each
launch one observation, corrected for comparing many sizes at once
(Benjamini-Hochberg). Then the geometric mean per benchmark and the speed
multiplier by size band (0-32 B, 64 B-4 KiB, 8-256 KiB, 512 KiB-4 MiB).
Each benchmark is compared by the number its table leads with: t[usec]
(the slower rank) for PingPong and PingPing, t_avg for the other IMB
benchmarks and OSU's latencies, MB/s for OSU's bandwidth tests.

` + inputHelp,
		Groups: []cli.Group{{Title: "Flags:", Flags: slices.Concat(compareFlagNames, []string{"link-a", "link-b"},
			inputFlagNames, []string{"format", "json"})}},
		Outro: `Run each side 4-5 times: with fewer than 4 launches a side no difference can
be significant at 0.05; each size is then held against the launch-to-launch
noise (-noise) instead, and a difference beyond three times it is marked '!'.

` + cli.ExitHelp([]int{0, cli.ExitUsage}, map[int]string{0: "compared", cli.ExitUsage: "bad input (unreadable runs, nothing in common, intra- against inter-node without -force)"}),
		Examples: []string{
			"gomb compare base-*.jsonl vs xpmem-*.jsonl",
			"gomb compare 'system=hpc4 config=base last=5' 'system=hpc4 config=xpmem last=5'",
			"gomb compare -metric t_max_us old.log new.log",
			"gomb compare -metric link_efficiency -link-a 100 -link-b 200 edr.log hdr.log",
			"gomb compare -format csv base-*.jsonl vs new-*.jsonl > ab.csv   # a row a size, for a spreadsheet",
		},
	}
}

// compareCmd is gomb compare's command line.
type compareCmd struct {
	in           inputFlags
	cf           compareFlags
	linkA, linkB analysis.Link
	format       string
	pos, a, b    []string
}

func compareFlagSet(c *compareCmd) *flag.FlagSet {
	fs := cli.NewFlagSet("compare")
	c.cf.register(fs)
	linkFlag(fs, "link-a", "`RATE` the link of side A in Gb/s, for link_efficiency (default: the links its runs recorded)", &c.linkA)
	linkFlag(fs, "link-b", "`RATE` the link of side B in Gb/s, for link_efficiency (default: the links its runs recorded)", &c.linkB)
	c.in.register(fs)
	fs.StringVar(&c.format, "format", "text", "`F` text (the tables) or csv (a row a benchmark, process count and size, "+
		"every number in full, as benchstat's -format csv)")
	c.in.jsonFlag(fs)
	return fs
}

var compareUsage = helpWriter(compareHelp, compareFlagSet(&compareCmd{}))

func parseCompare(args []string) (*compareCmd, error) {
	c := &compareCmd{}
	pos, err := cli.ParseCommand(compareFlagSet(c), args)
	if err != nil {
		return nil, err
	}
	if err := c.cf.parseMetric("compare"); err != nil {
		return nil, err
	}
	if c.format != "text" && c.format != "csv" {
		return nil, cli.Usage("compare: -format %q: want text or csv", c.format)
	}
	c.pos = pos
	if c.a, c.b, err = splitSides(pos); err != nil {
		return nil, err
	}
	return c, nil
}

func runCompare(stdout, stderr io.Writer, args []string) error {
	c, err := parseCompare(args)
	if err != nil {
		return helpOr(err, stdout, compareUsage)
	}
	if err := c.in.refuseJSONInput(c.pos); err != nil {
		return err
	}
	r := c.in.resolver()
	defer r.Close()
	ra, err := resolve(stderr, r, "A", c.a)
	if err != nil {
		return err
	}
	rb, err := resolve(stderr, r, "B", c.b)
	if err != nil {
		return err
	}
	o := c.cf.options(r, ra, rb)
	o.LinkA, o.LinkB = c.linkA, c.linkB
	cmp, err := analysis.Compare(input.SideName(c.a), ra, input.SideName(c.b), rb, o)
	if err != nil {
		return cli.Usage("compare: %v", err)
	}
	write := text.Comparison
	if c.format == "csv" {
		write = text.ComparisonCSV
	}
	if err := write(c.in.text(stdout, stderr), cmp); err != nil {
		return err
	}
	return c.in.writeJSON(stdout, cmp, c.pos)
}
