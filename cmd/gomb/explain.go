package main

import (
	"flag"
	"io"
	"os"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/result"
)

const explainUsageText = `Usage: gomb explain [flags] RUN...

Says in plain words what stands out in a run, each finding with the
benchmark, the sizes, the numbers behind it and a likely cause: ranks far
apart (t_max > 3 x t_min), repetitions in two groups, cliffs (time jumps or
bandwidth drops between adjacent sizes that do not recover), protocol
switches (eager to rendezvous, from a fit of time = a + b x size), the
fabric class the latency implies (shared memory, RDMA, Ethernet/TCP),
efficiency and plateaus against the link rate, bus bandwidth of
collectives, collectives slower than a model built from the run's own
PingPong, stragglers (one rank slowest far more often than chance), and,
when the archive holds earlier runs of the run's system (its labels
system=, config=, and its locality), benchmarks 1.5x slower or faster than
their median over the last of them. Expected behaviour (the MPI's
protocol switch showing in every benchmark) is said once, as information.

` + inputHelp + `

Flags:
  -link RATE      the link rate in Gb/s (100, 200Gb/s, 25GbE); default: the
                  fastest link the run's hosts recorded (InfiniBand first)
  -history N      hold the run against up to N earlier archived runs of its
                  system, configuration and locality (10; 0: none)
` + inputFlagsHelp + jsonHelp + `
Exit status: 0 explained (findings do not change it), 2 bad input.

Examples:
  gomb explain run.jsonl
  gomb explain -link 100 imb-hpc4-20260101.log
  gomb explain 'system=hpc4 last=1'
`

func runExplain(stdout, stderr io.Writer, args []string) error {
	var in inputFlags
	fs := flag.NewFlagSet("gomb explain", flag.ContinueOnError)
	in.register(fs)
	fs.StringVar(&in.json, "json", "", "")
	var link analysis.Link
	linkFlag(fs, "link", &link)
	past := 10
	fs.Func("history", "", atLeast(0, "earlier runs", func(v int) { past = v }))
	pos, err := parseCommand(stdout, fs, explainUsageText, args)
	if err != nil {
		return helpDone(err)
	}
	if len(pos) == 0 {
		return usageErr("explain: give the run to explain ('gomb explain -help')")
	}
	if err := in.refuseJSONInput(pos); err != nil {
		return err
	}
	r := in.resolver()
	defer r.Close()
	runs, err := resolve(stderr, r, "explain", pos)
	if err != nil {
		return err
	}
	type explained struct {
		Run      string             `json:"run"`
		RunID    string             `json:"run_id"`
		Findings []analysis.Finding `json:"findings"`
	}
	var all []explained
	w := in.text(stdout, stderr)
	for _, run := range runs {
		hist, err := history(r, in.archive, run, past)
		if err != nil {
			return err
		}
		fs := analysis.Explain(run, analysis.ExplainOptions{Link: link, History: hist})
		title := "gomb explain: " + describeRun(run)
		if err := text.Findings(w, title, fs); err != nil {
			return err
		}
		all = append(all, explained{Run: describeRun(run), RunID: run.Run.RunID, Findings: fs})
	}
	return in.writeJSON(stdout, all, pos)
}

// history is the run's earlier archived runs, when there is an archive to
// look in (explain creates none).
func history(r *input.Resolver, path string, run *result.Bundle, n int) ([]*result.Bundle, error) {
	if n == 0 || run.Run.Labels["system"] == "" {
		return nil, nil
	}
	if path == "" {
		p, err := archive.DefaultPath()
		if err != nil {
			return nil, nil
		}
		path = p
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	return r.History(run, analysis.Locality([]*result.Bundle{run}), n)
}
