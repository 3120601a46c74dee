// Package junit writes gomb check's verdicts as JUnit XML, the test report
// GitLab, Jenkins, Azure Pipelines and CircleCI read: a test suite per
// benchmark and process count, a test case per message-size band, a
// failure where a size of the band regressed, with the numbers. It formats
// what the analysis package decided and decides nothing itself.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	tables "github.com/gomb-hpc/gomb/internal/report/text"
)

type testsuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Suites   []testsuite `xml:"testsuite"`
}

type testsuite struct {
	Name      string     `xml:"name,attr"`
	Tests     int        `xml:"tests,attr"`
	Failures  int        `xml:"failures,attr"`
	Errors    int        `xml:"errors,attr"`
	Skipped   int        `xml:"skipped,attr"`
	Time      string     `xml:"time,attr"`
	Timestamp string     `xml:"timestamp,attr,omitempty"`
	Cases     []testcase `xml:"testcase"`
	Out       *cdata     `xml:"system-out,omitempty"`
}

type testcase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *message `xml:"failure,omitempty"`
	Skipped   *message `xml:"skipped,omitempty"`
	Out       *cdata   `xml:"system-out,omitempty"`
}

type message struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// cdata is text kept as written, a line a size, for the CI page to show.
type cdata struct {
	Text string `xml:",cdata"`
}

func text(s string) *cdata {
	if s == "" {
		return nil
	}
	return &cdata{s}
}

// Options name the report.
type Options struct {
	Name string    // the <testsuites> name, e.g. "gomb check"
	Time time.Time // when the check ran (zero: no timestamp)
}

// Check writes r as JUnit XML: one test suite per benchmark and process
// count, one test case per size band with the band's sizes; a case fails
// when one of its sizes is a regression, and is skipped when none of its
// sizes is in the run. Unconfirmed sizes and the check's notes go to the
// case's and the suite's output.
func Check(w io.Writer, r *analysis.CheckResult, o Options) error {
	doc := testsuites{Name: o.Name}
	var order []analysis.Series
	rows := map[analysis.Series][][]analysis.CheckRow{} // per series, per band
	for _, x := range r.Rows {
		s := x.Key.Series()
		if _, ok := rows[s]; !ok {
			order = append(order, s)
			rows[s] = make([][]analysis.CheckRow, len(analysis.Bands))
		}
		b := analysis.BandOf(x.Key.Bytes)
		rows[s][b] = append(rows[s][b], x)
	}
	var notes strings.Builder
	for _, n := range r.Warnings {
		fmt.Fprintf(&notes, "note: %s\n", n)
	}
	stamp := ""
	if !o.Time.IsZero() {
		stamp = o.Time.UTC().Format("2006-01-02T15:04:05")
	}
	for _, s := range order {
		ts := testsuite{Name: suiteName(s), Time: "0", Timestamp: stamp, Out: text(notes.String())}
		for b, xs := range rows[s] {
			if len(xs) == 0 {
				continue
			}
			ts.Cases = append(ts.Cases, band(s, analysis.Bands[b], xs))
			tc := &ts.Cases[len(ts.Cases)-1]
			switch {
			case tc.Failure != nil:
				ts.Failures++
			case tc.Skipped != nil:
				ts.Skipped++
			}
		}
		ts.Tests = len(ts.Cases)
		doc.Tests += ts.Tests
		doc.Failures += ts.Failures
		doc.Suites = append(doc.Suites, ts)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// suiteName is a series as the check table names it: "imb PingPong np 2".
func suiteName(s analysis.Series) string {
	name := s.Benchmark
	if s.Suite != "" {
		name = s.Suite + " " + name
	}
	if s.NP > 0 {
		name += fmt.Sprintf(" np %d", s.NP)
	}
	return name
}

// band is the test case of one series' sizes in one band.
func band(s analysis.Series, b analysis.Band, xs []analysis.CheckRow) testcase {
	tc := testcase{Name: b.Label, Classname: classname(s), Time: "0"}
	var out, failed strings.Builder
	var regressed, missing []string
	for _, x := range xs {
		line := sizeLine(x)
		fmt.Fprintln(&out, line)
		switch x.Verdict {
		case analysis.VerdictRegression:
			regressed = append(regressed, fmt.Sprintf("%s %+.1f%%", analysis.Size(x.Key.Bytes), 100*x.Change))
			fmt.Fprintln(&failed, line)
		case analysis.VerdictMissing:
			missing = append(missing, analysis.Size(x.Key.Bytes))
		}
	}
	tc.Out = text(out.String())
	switch {
	case len(regressed) > 0:
		tc.Failure = &message{Type: "regression", Text: failed.String(),
			Message: fmt.Sprintf("%d of %d sizes regressed: %s", len(regressed), len(xs), strings.Join(regressed, ", "))}
	case len(missing) == len(xs):
		tc.Skipped = &message{Message: "not in the run: " + strings.Join(missing, ", ")}
	}
	return tc
}

// classname groups the cases the way CI pages list them: gomb.SUITE.BENCH.npN.
func classname(s analysis.Series) string {
	c := "gomb." + s.Suite + "." + s.Benchmark
	if s.Suite == "" {
		c = "gomb." + s.Benchmark
	}
	if s.NP > 0 {
		c += fmt.Sprintf(".np%d", s.NP)
	}
	return c
}

// sizeLine is one size's numbers: "8 B: t_avg 1.23 us against 1.01 us ±0.02
// (3 runs): +21.8%, allowed 5.0% (tolerance 5%): REGRESSION".
func sizeLine(x analysis.CheckRow) string {
	unit, runs := x.Metric.Unit(), fmt.Sprintf("%d runs", x.BaseRuns)
	if x.BaseRuns == 1 {
		runs = "1 run"
	}
	if math.IsNaN(float64(x.Value)) {
		return fmt.Sprintf("%s: %s not in the run; baseline %s %s (%s)", analysis.Size(x.Key.Bytes), x.Metric,
			tables.Num(x.Base), unit, runs)
	}
	return fmt.Sprintf("%s: %s %s %s against %s %s ±%s (%s): %+.1f%%, allowed %.1f%% (tolerance %s): %s",
		analysis.Size(x.Key.Bytes), x.Metric, tables.Num(x.Value), unit, tables.Num(x.Base), unit,
		tables.Num(x.Spread), runs, 100*float64(x.Change), 100*float64(x.Allowed), x.Tolerance, x.Verdict)
}
