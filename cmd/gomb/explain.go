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

func explainHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb explain [flags] RUN...",
		Intro: `Says in plain words what stands out in a run, each finding with the
benchmark, the sizes, the numbers behind it and a likely cause: ranks far
apart (t_max > 3 x t_min), repetitions in two groups, cliffs (time jumps or
bandwidth drops between adjacent sizes that do not recover), protocol
switches (eager to rendezvous, from a fit of time = a + b x size), the
fabric (evidence first: where the ranks ran, by the rank->host map or the
log's launch line, and the transport the run names; then every class the
latency fits, with published figures; a WARNING only where evidence and
latency contradict), efficiency and plateaus against the link rate, bus
bandwidth of collectives, bandwidth that falls with size or with more
processes, IMB-EXT's aggregate mode slower than non-aggregate, GPU buffers
staged through the host, time that falls as messages grow, collectives
slower than a model built from the run's (or its log's) ping-pong,
stragglers (one rank slowest far more often than chance), and, when the
archive holds earlier runs of the run's system (its labels system=,
config=, and its locality), benchmarks 1.5x slower or faster than their
median over the last of them. A log's runs are read together (an OSU log
holds one test a run). Expected behaviour (the MPI's protocol switch
showing in every benchmark, the caches on one node) is said once, as
information.

` + inputHelp,
		Groups:   []cli.Group{{Title: "Flags:", Flags: slices.Concat([]string{"link", "history"}, inputFlagNames, []string{"json"})}},
		Outro:    cli.ExitHelp([]int{0, cli.ExitUsage}, map[int]string{0: "explained (findings do not change it)", cli.ExitUsage: "bad input"}),
		Examples: []string{"gomb explain run.jsonl", "gomb explain -link 100 imb-hpc4-20260101.log", "gomb explain 'system=hpc4 last=1'"},
	}
}

// explainCmd is gomb explain's command line.
type explainCmd struct {
	in      inputFlags
	link    analysis.Link
	history int
	runs    []string
}

func newExplainCmd() *explainCmd { return &explainCmd{history: 10} }

func explainFlagSet(c *explainCmd) *flag.FlagSet {
	fs := cli.NewFlagSet("explain")
	linkFlag(fs, "link", "`RATE` the link rate in Gb/s (100, 200Gb/s, 25GbE); default: the fastest link the run's hosts recorded (InfiniBand first)", &c.link)
	fs.Func("history", "`N` hold the run against up to N earlier archived runs of its system, configuration and locality (default 10; 0: none)",
		cli.AtLeast(0, "earlier runs", func(v int) { c.history = v }))
	c.in.register(fs)
	c.in.jsonFlag(fs)
	return fs
}

var explainUsage = helpWriter(explainHelp, explainFlagSet(newExplainCmd()))

func parseExplain(args []string) (*explainCmd, error) {
	c := newExplainCmd()
	pos, err := cli.ParseCommand(explainFlagSet(c), args)
	if err != nil {
		return nil, err
	}
	if len(pos) == 0 {
		return nil, cli.Usage("explain: give the run to explain ('gomb explain -help')")
	}
	c.runs = pos
	return c, nil
}

func runExplain(stdout, stderr io.Writer, args []string) error {
	c, err := parseExplain(args)
	if err != nil {
		return helpOr(err, stdout, explainUsage)
	}
	if err := c.in.refuseJSONInput(c.runs); err != nil {
		return err
	}
	r := c.in.resolver()
	defer r.Close()
	runs, err := resolve(stderr, r, "explain", c.runs)
	if err != nil {
		return err
	}
	type explained struct {
		Run      string             `json:"run"`
		RunID    string             `json:"run_id"`
		Findings []analysis.Finding `json:"findings"`
	}
	var all []explained
	w := c.in.text(stdout, stderr)
	peers := analysis.NewPeers(runs)
	for _, run := range runs {
		hist, err := r.History(run, c.history)
		if err != nil {
			return err
		}
		fs := analysis.Explain(run, analysis.ExplainOptions{Link: c.link, History: hist, Peers: peers})
		if err := text.Findings(w, "gomb explain: "+input.Describe(run), fs); err != nil {
			return err
		}
		all = append(all, explained{Run: input.Describe(run), RunID: run.Run.RunID, Findings: fs})
	}
	return c.in.writeJSON(stdout, all, c.runs)
}
