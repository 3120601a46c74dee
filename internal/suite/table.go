package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Table is a suite's results table: the run rules' rows with what their
// records say, against the reference system and the required values.
type Table struct {
	Suite, Title string
	Reference    string // the reference system ("" : none)
	Campaign     string
	Lines        []*Line
	// Missed counts the required values not met (a FAIL, or a row that
	// failed or did not run: its value is not there to meet them).
	Missed int
	// Nodes are the node facts the run gathered (its nodes.jsonl).
	Nodes []*result.Node
	// Runs are every run the records hold, file by file, incomplete ones
	// and other campaigns' too; Profiles, with TableOptions.Explain,
	// summarise them by series and size (the HTML report's plots).
	Runs     []*result.Bundle
	Profiles []analysis.Profile
}

// Verdicts of a line.
const (
	Pass    = "PASS"
	Fail    = "FAIL"
	Skipped = "SKIPPED"
	Failed  = "FAILED"
	NotRun  = "NOT RUN"
)

// Line is one row at one size.
type Line struct {
	Row   *Row
	Test  string // the Test column: the row's title, and its path
	Ranks string // "1 per node (2 ranks)"
	Size  string // "8 B", "N/A"
	Bytes int64
	Nodes string // "2", "all (6)"
	Hosts []string
	// Value is the median over the repetitions of the metric (NaN: none),
	// in Unit; Values each repetition's, in order; Spread half their
	// range over the median (NaN with fewer than two).
	Value  float64
	Unit   string
	Values []float64
	Spread float64
	// Reps is how many repetitions the value stands on, of Planned.
	Reps, Planned int
	Ref           *Value // the reference system's value (nil: none)
	Ratio         float64
	Required      *Requirement
	// Verdict is Pass or Fail against Required ("" : no requirement), or
	// Skipped, Failed, NotRun with Reason.
	Verdict string
	Reason  string
	// Records are the record files the value comes from; Findings what
	// explain says of them (the row's, not the size's).
	Records  []string
	Findings []analysis.Finding
	// PathNote says why these two nodes.
	PathNote string
}

// ValueText is the value as the table prints it, with its unit ("1.61
// us"; "-" for none).
func (l *Line) ValueText() string { return FormatValue(l.Value, l.Unit) }

// FormatValue writes a value with two decimals and its unit.
func FormatValue(v float64, unit string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " " + unit
}

// SpreadText is "±1.2%" ("-" with fewer than two repetitions).
func (l *Line) SpreadText() string {
	if math.IsNaN(l.Spread) {
		return "-"
	}
	return fmt.Sprintf("±%.1f%%", 100*l.Spread)
}

// RefText is the reference value in the metric's unit ("-" for none).
func (l *Line) RefText() string {
	if l.Ref == nil {
		return "-"
	}
	return FormatValue(l.Ref.V, l.Unit)
}

// RatioText is value over reference ("0.85x"; "-").
func (l *Line) RatioText() string {
	if math.IsNaN(l.Ratio) {
		return "-"
	}
	return fmt.Sprintf("%.2fx", l.Ratio)
}

// RequiredText is the requirement as written ("-" for none).
func (l *Line) RequiredText() string {
	if l.Required == nil {
		return "-"
	}
	return l.Required.String()
}

// VerdictText is the verdict and, for a row that did not give a value,
// why.
func (l *Line) VerdictText() string {
	if l.Reason != "" {
		return l.Verdict + ": " + l.Reason
	}
	if l.Verdict == "" {
		return "-"
	}
	return l.Verdict
}

// TableOptions tune Results.
type TableOptions struct {
	// Campaign, when set, takes only the records of that campaign.
	Campaign string
	// Explain adds explain's findings to every line, and the runs'
	// profiles to the table.
	Explain bool
}

// Results reads a suite directory (gomb suite run -o DIR) back into the
// results table of f: every value from the records (each row's cell),
// every skip and failure from the ledger.
func Results(f *File, dir string, o TableOptions) (*Table, error) {
	ledger, err := ReadLedger(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no suite run there (no %s: gomb suite run -o %s first)", dir, LedgerFile, dir)
		}
		return nil, err
	}
	t := &Table{Suite: f.Suite, Title: f.Title, Reference: f.Reference, Campaign: o.Campaign}
	if t.Title == "" {
		t.Title = f.Suite
	}
	if facts, err := ReadFactsFile(filepath.Join(dir, FactsFile)); err == nil {
		for _, n := range facts {
			t.Nodes = append(t.Nodes, n)
		}
		sort.Slice(t.Nodes, func(i, j int) bool { return t.Nodes[i].Host < t.Nodes[j].Host })
	}
	byRow, err := t.readRuns(dir, o.Campaign)
	if err != nil {
		return nil, err
	}
	if o.Explain && len(t.Runs) > 0 {
		t.Profiles = analysis.Profiles(t.Runs)
	}
	for _, r := range f.Rows {
		runs := byRow[r.ID]
		sort.Slice(runs, func(i, j int) bool { return runs[i].rep < runs[j].rep })
		st := stateOf(ledger, r.ID)
		for _, x := range runs {
			st.records = append(st.records, x.file)
		}
		if o.Explain {
			st.findings = findingsOf(runs)
		}
		sizes := r.Sizes
		if len(sizes) == 0 {
			sizes = []int64{-1} // the test's one row, whatever its size
		}
		for si, size := range sizes {
			ln := lineOf(f, r, si, size, runs, st)
			if r.Required != nil && ln.Verdict != Pass && ln.Verdict != Skipped {
				t.Missed++
			}
			t.Lines = append(t.Lines, ln)
		}
	}
	return t, nil
}

// rowRun is one complete launch of a row: its records, their file and
// the repetition it was.
type rowRun struct {
	b    *result.Bundle
	file string
	rep  int
}

// readRuns reads every record file of the run folder into t.Runs and
// gives the complete launches of each row (of the campaign, where one is
// named).
func (t *Table) readRuns(dir, campaign string) (map[string][]rowRun, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "records", "*.jsonl"))
	byRow := map[string][]rowRun{}
	for _, file := range files {
		bs, err := readBundles(file)
		if err != nil {
			return nil, err
		}
		t.Runs = append(t.Runs, bs...)
		for _, b := range bs {
			l := b.Run.Labels
			if l["row"] == "" || campaign != "" && l["campaign"] != campaign {
				continue
			}
			if b.End == nil || b.End.Status != result.EndComplete {
				continue
			}
			rep, _ := strconv.Atoi(l["rep"])
			byRow[l["row"]] = append(byRow[l["row"]], rowRun{b, file, rep})
		}
	}
	return byRow, nil
}

// rowState is what the ledger says of a row's launches (how many were
// planned, the hosts of the first, a skip, a failure or a launch not
// run), with the row's record files and explain's findings on them.
type rowState struct {
	planned               int
	hosts, records        []string
	skip, failure, notRun *Entry
	findings              []analysis.Finding
}

func stateOf(ledger map[string]*Entry, id string) *rowState {
	st := &rowState{}
	if e := ledger[LedgerKey(id, 0)]; e != nil && e.Status == StatusSkipped {
		st.skip = e
	}
	for k := 1; ; k++ {
		e := ledger[LedgerKey(id, k)]
		if e == nil {
			break
		}
		st.planned = k
		if st.hosts == nil {
			st.hosts = e.Hosts
		}
		switch e.Status {
		case StatusFailed:
			st.failure = e
		case StatusNotRun:
			st.notRun = e
		}
	}
	return st
}

// findingsOf are explain's findings on a row's launches, each once.
func findingsOf(runs []rowRun) []analysis.Finding {
	var findings []analysis.Finding
	seen := map[string]bool{}
	for _, x := range runs {
		for _, fd := range analysis.Explain(x.b, analysis.ExplainOptions{}) {
			if !seen[fd.Summary] {
				seen[fd.Summary] = true
				findings = append(findings, fd)
			}
		}
	}
	return findings
}

// lineOf is the table's line of row r at its si-th size (-1: the test's
// one row): the median over the launches, their spread, the reference
// and the verdict.
func lineOf(f *File, r *Row, si int, size int64, runs []rowRun, st *rowState) *Line {
	ln := &Line{Row: r, Test: r.Title, Ranks: r.Placement.Words(), Nodes: nodesWord(r.Nodes), Hosts: st.hosts,
		Bytes: size, Unit: r.Metric.Unit(), Value: math.NaN(), Spread: math.NaN(), Ratio: math.NaN(),
		Required: r.Required, Planned: st.planned, Records: st.records, Findings: st.findings}
	if r.Path != PathAny {
		ln.Test += " (" + string(r.Path) + " path)"
	}
	if size >= 0 {
		ln.Size = analysis.Size(size)
	} else {
		ln.Size = "N/A"
	}
	if f.Reference != "" {
		ln.Ref = r.Reference(f.Reference, si)
	}
	np := 0
	for _, x := range runs {
		v, n := valueOf(x.b, size, r.Metric)
		if !math.IsNaN(v) {
			ln.Values = append(ln.Values, v)
			np = n
		}
	}
	if np > 0 {
		ln.Ranks += fmt.Sprintf(" (%d ranks)", np)
	}
	if r.Nodes == 0 && len(runs) > 0 {
		ln.Nodes = fmt.Sprintf("all (%d)", len(runs[0].b.Run.Hosts))
	}
	if len(st.hosts) == 2 && r.Path != PathAny {
		ln.PathNote = st.hosts[0] + " - " + st.hosts[1]
	}
	ln.Reps = len(ln.Values)
	if ln.Reps > 0 {
		ln.Value = stats.Median(ln.Values)
		if ln.Reps > 1 {
			lo, hi := stats.MinMax(ln.Values)
			ln.Spread = (hi - lo) / 2 / ln.Value
		}
		if ln.Ref != nil && ln.Ref.V > 0 {
			ln.Ratio = ln.Value / ln.Ref.V
		}
	}
	switch {
	case st.skip != nil && ln.Reps == 0:
		ln.Verdict, ln.Reason = Skipped, st.skip.Reason
	case ln.Reps == 0 && st.failure != nil:
		ln.Verdict, ln.Reason = Failed, st.failure.Reason
	case ln.Reps == 0 && st.notRun != nil:
		ln.Verdict, ln.Reason = NotRun, st.notRun.Reason
	case ln.Reps == 0 && len(runs) > 0:
		ln.Verdict, ln.Reason = Failed, fmt.Sprintf("the records have no %s row at %s", r.Metric, ln.Size)
	case ln.Reps == 0:
		ln.Verdict, ln.Reason = NotRun, "not run yet"
	case r.Required != nil && r.Required.Met(ln.Value):
		ln.Verdict = Pass
	case r.Required != nil:
		ln.Verdict = Fail
	}
	return ln
}

// readBundles reads a record file's runs with the importer (gomb's own
// records, grouped by run id); an incomplete run (a launch killed, its
// end record never written) is kept with End nil. A file the importer
// finds in no known format, or in another than gomb's records (empty: a
// launch that died before its run record), holds no run; only a file that
// cannot be read is an error.
func readBundles(path string) ([]*result.Bundle, error) {
	f, err := importer.ImportFile(path, path, importer.Options{}, nil)
	if err != nil {
		if errors.As(err, new(*fs.PathError)) {
			return nil, err
		}
		return nil, nil
	}
	if f.Format != importer.Records {
		return nil, nil
	}
	return f.Runs, nil
}

// valueOf is a run's metric at a size (-1: any), read from its row with
// the most ranks (IMB runs a collective at 2, 4, ... ranks up to all of
// them), and that count; NaN where the run has no such row.
func valueOf(b *result.Bundle, size int64, m Metric) (float64, int) {
	var best *result.Result
	for _, r := range b.Results {
		if r.Status != result.StatusOK || size >= 0 && r.Bytes != size {
			continue
		}
		if best == nil || r.NP > best.NP {
			best = r
		}
	}
	if best == nil {
		return math.NaN(), 0
	}
	return Read(best, m), best.NP * max(best.Groups, 1)
}

// Read is a result's metric: latency, the time its benchmark's table
// leads with (t_max where that is the benchmark's number, else t_avg),
// in µs; bandwidth, its MB/s, or where the benchmark prints none its
// bytes over that time (MB = 10^6 bytes); message rate, its messages a
// second. NaN where the result has none.
func Read(r *result.Result, m Metric) float64 {
	t := r.TAvgUS
	if analysis.Primary(r.Suite, r.Benchmark) == analysis.TMax {
		t = r.TMaxUS
	}
	var v float64
	switch m {
	case Latency:
		v = t
	case Bandwidth:
		v = r.MBps
		if !(v > 0) && t > 0 && r.Bytes > 0 {
			v = float64(r.Bytes) / t
		}
	case MessageRate:
		v = r.MsgPerSec
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}
