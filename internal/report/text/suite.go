package text

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gomb-hpc/gomb/internal/suite"
)

// suiteColumns are the results table's columns: the seed's five (Test,
// Ranks, Msg Size, Num Nodes, Result), then the spread over repetitions,
// the reference and the ratio, the requirement and the verdict.
func suiteColumns(t *suite.Table) []string {
	ref := "Reference"
	if t.Reference != "" {
		ref = t.Reference
	}
	return []string{"Test", "Ranks", "Msg Size", "Num Nodes", "Result", "Spread", "Reps", ref, "Ratio", "Required", "Verdict"}
}

func suiteCells(l *suite.Line) []string {
	nodes := l.Nodes
	if l.PathNote != "" {
		nodes += " (" + l.PathNote + ")"
	}
	return []string{l.Test, l.Ranks, l.Size, nodes, l.ValueText(), l.SpreadText(), fmt.Sprintf("%d/%d", l.Reps, l.Planned),
		l.RefText(), l.RatioText(), l.RequiredText(), l.VerdictText()}
}

// Suite writes the results table as text: a line a row and size, then
// the verdict.
func Suite(w io.Writer, t *suite.Table) error {
	fmt.Fprintf(w, "# %s: results\n", t.Title)
	fmt.Fprintf(w, "# Result: the median over the repetitions (MB = 10^6 bytes); Spread: half their range over it; Ratio: Result / %s\n\n", refName(t))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(suiteColumns(t), "\t"))
	for _, l := range t.Lines {
		fmt.Fprintln(tw, strings.Join(suiteCells(l), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return suiteVerdict(w, t)
}

func refName(t *suite.Table) string {
	if t.Reference == "" {
		return "the reference (none named)"
	}
	return t.Reference + "'s value"
}

func suiteVerdict(w io.Writer, t *suite.Table) error {
	required, pass := 0, 0
	for _, l := range t.Lines {
		if l.Required != nil && l.Verdict != suite.Skipped {
			required++
			if l.Verdict == suite.Pass {
				pass++
			}
		}
	}
	var err error
	switch {
	case required == 0:
		_, err = fmt.Fprintf(w, "no required values\n")
	case t.Missed == 0:
		_, err = fmt.Fprintf(w, "PASS: %d required values met\n", pass)
	default:
		_, err = fmt.Fprintf(w, "FAIL: %d of %d required values missed\n", t.Missed, required)
	}
	return err
}

// SuiteMarkdown writes the results table as a Markdown table.
func SuiteMarkdown(w io.Writer, t *suite.Table) error {
	fmt.Fprintf(w, "## %s: results\n\n", t.Title)
	cols := suiteColumns(t)
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, l := range t.Lines {
		cells := suiteCells(l)
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Result: the median over the repetitions (MB = 10^6 bytes); Spread: half their range over it; Ratio: Result / %s.\n\n", refName(t))
	return suiteVerdict(w, t)
}

// SuiteCSV writes the results table as CSV, numbers in full and in the
// metric's unit, an empty cell for a value that does not exist.
func SuiteCSV(w io.Writer, t *suite.Table) error {
	cw := csv.NewWriter(w)
	head := []string{"row", "test", "ranks", "msg_size", "bytes", "num_nodes", "hosts", "metric", "unit", "result",
		"spread", "reps", "planned", "values", "reference_system", "reference", "ratio", "required", "verdict", "reason"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, l := range t.Lines {
		var vals []string
		for _, v := range l.Values {
			vals = append(vals, csvNum(v))
		}
		ref := ""
		if l.Ref != nil {
			ref = csvNum(l.Ref.V)
		}
		req := ""
		if l.Required != nil {
			req = l.Required.String()
		}
		bytes := ""
		if l.Bytes >= 0 {
			bytes = strconv.FormatInt(l.Bytes, 10)
		}
		rec := []string{l.Row.ID, l.Test, l.Ranks, l.Size, bytes, l.Nodes, strings.Join(l.Hosts, " "), string(l.Row.Metric), l.Unit,
			csvNum(l.Value), csvNum(l.Spread), strconv.Itoa(l.Reps), strconv.Itoa(l.Planned), strings.Join(vals, " "),
			t.Reference, ref, csvNum(l.Ratio), req, l.Verdict, l.Reason}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SuitePlan writes a suite's plan (gomb suite plan): the allocation, then
// every row with its nodes, ranks and launcher lines, or why it is
// skipped.
func SuitePlan(w io.Writer, p *suite.Plan) error {
	a := p.Alloc
	fmt.Fprintf(w, "# suite %s: %d rows, %d launches on %d nodes (%s), launcher %s\n", p.File.Suite, len(p.Rows), len(p.Launches()),
		len(a.Nodes), a.Source, p.Launcher.Kind)
	switch {
	case a.Tree != nil:
		fmt.Fprintf(w, "# topology: the switch tree of %s\n", a.Tree.Source)
	case a.Fleet != nil:
		fmt.Fprintf(w, "# topology: the pair latencies of %s\n", a.Fleet.Source)
	default:
		fmt.Fprintf(w, "# topology: none\n")
	}
	if a.Assumed != nil {
		fmt.Fprintf(w, "# nodes: this machine's hardware stands for every node (%s); gomb suite run gathers each node's\n", suite.Describe(a.Assumed))
	} else {
		fmt.Fprintf(w, "# nodes: %d with their hardware known (%s, ...)\n", len(a.Facts), suite.Describe(a.FactsOf(a.Nodes[0])))
	}
	fmt.Fprintf(w, "# records labelled campaign=%s and cell row=ID,rep=K\n", p.Campaign)
	for _, r := range p.Rows {
		fmt.Fprintf(w, "\nrow %s (%s:%d): %s\n", r.Row.ID, p.File.Name, r.Row.Line(""), strings.Join(r.Row.Test, " "))
		if r.Skip != "" {
			fmt.Fprintf(w, "  skipped: %s\n", r.Skip)
			continue
		}
		hosts := suite.Compress(r.Hosts)
		if hosts == "" {
			hosts = "Slurm's pick"
		}
		fmt.Fprintf(w, "  %d nodes (%s), %s: %d a node, %d ranks; %d repetitions\n", r.Nodes, hosts, r.Row.Placement.Words(),
			r.PerNode, r.NP, len(r.Launches))
		if r.Path != "" {
			fmt.Fprintf(w, "  %s path: %s\n", r.Row.Path, r.Path)
		}
		for _, x := range r.Launches {
			fmt.Fprintf(w, "  %s\n", strings.Join(x.Line, " "))
		}
	}
	return nil
}
