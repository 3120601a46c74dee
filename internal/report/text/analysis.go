// Package analysis writes gomb's interpretations as text: the A/B
// comparison with its band table, the baseline check, and explain's
// findings. It formats what the analysis package computed and computes
// nothing itself.
package text

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/gomb-hpc/gomb/internal/analysis"
)

// Num writes a time or bandwidth with the digits that matter.
func Num[F ~float64](f F) string {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return "-"
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// Speed writes a speed multiplier: 0.97x, 0.014x.
func Speed[F ~float64](f F) string {
	v := float64(f)
	if math.IsNaN(v) {
		return "-"
	}
	if v < 0.1 {
		return fmt.Sprintf("%.3fx", v)
	}
	return fmt.Sprintf("%.2fx", v)
}

func side(s analysis.Side) string {
	d := fmt.Sprintf("%d run", s.Runs)
	if s.Runs != 1 {
		d += "s"
	}
	if len(s.Labels) > 0 {
		d += ": " + strings.Join(s.Labels, ", ")
	}
	if s.Locality != "" {
		d += "; " + s.Locality
	}
	return fmt.Sprintf("%s (%s)", s.Name, d)
}

func seriesName(s analysis.Series) string {
	if s.NP > 0 {
		return fmt.Sprintf("%s (np %d)", s.Benchmark, s.NP)
	}
	return s.Benchmark
}

// Comparison writes the per-size table, the geometric means and the band
// table.
func Comparison(w io.Writer, c *analysis.Comparison) error {
	fmt.Fprintf(w, "# A: %s\n# B: %s\n", side(c.A), side(c.B))
	fmt.Fprintf(w, "# SPEED: how much faster B is than A (higher = faster, 1.00x = the same), the median over all pairs of runs\n")
	fmt.Fprintf(w, "# ~: not significant (Mann-Whitney U over the launches, false discovery rate %g over all rows)\n", c.Alpha)
	fmt.Fprintf(w, "# !: too few launches for the U test, but beyond the launch-to-launch noise (%.0f%% a launch, %g sigma)\n", 100*c.Noise, analysis.NoiseZ)
	var ms []analysis.Metric
	for _, r := range c.Rows {
		ms = append(ms, r.Metric)
	}
	trimNote(w, ms)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BENCHMARK\tNP\tBYTES\tMETRIC\tA\tB\tRUNS\tSPEED\tINTERVAL\tP\t\t")
	for _, r := range c.Rows {
		iv := "-"
		if r.CI {
			iv = fmt.Sprintf("[%s, %s]", Speed(r.Lo), Speed(r.Hi))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s [%s]\t%s\t%s\t%d/%d\t%s\t%s\t%.3g\t%s\t\n", r.Key.Benchmark, r.Key.NP, r.Key.Bytes,
			metricName(r.Metric), r.Metric.Unit(), Num(r.CentreA), Num(r.CentreB), len(r.A), len(r.B), Speed(r.Speed), iv, r.P, r.Mark())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nSpeed multiplier by message size (geometric mean over the sizes; higher = faster, 1.00x = A; ~ none significant, ! beyond launch noise)\n\n")
	tw = tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	head := "Benchmark\t| all sizes"
	for _, b := range analysis.Bands {
		head += "\t| " + b.Label
	}
	fmt.Fprintln(tw, head+"\t")
	fmt.Fprintln(tw, strings.Repeat("-", 16)+"\t"+strings.Repeat("|-----------\t", len(analysis.Bands)+1))
	for _, s := range c.Series {
		line := fmt.Sprintf("%s\t| %s", seriesName(s.Series), Speed(s.GeoMean))
		for _, b := range s.Bands {
			cell := Speed(b.Speed)
			if m := b.Mark(); m != "" {
				cell += " " + m
			}
			line += "\t| " + cell
		}
		fmt.Fprintln(tw, line+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nVerdict (significant differences only, or beyond the launch noise):\n")
	for _, l := range c.Verdict.Lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "  => %s\n", c.Verdict.Conclusion)
	for _, warn := range c.Warnings {
		fmt.Fprintf(w, "\nnote: %s", warn)
	}
	if len(c.Warnings) > 0 {
		fmt.Fprintln(w)
	}
	return nil
}

func metricName(m analysis.Metric) string {
	switch m {
	case analysis.TAvg:
		return "t_avg"
	case analysis.TMin:
		return "t_min"
	case analysis.TMax:
		return "t_max"
	case analysis.Efficiency:
		return "link efficiency"
	case analysis.TTrim:
		return "t_trimmed"
	case analysis.PairTime:
		return "t_p10"
	case analysis.PairBW:
		return "bandwidth_p10"
	}
	return "bandwidth"
}

// trimNote is the header line that says what t_trimmed is, when a row
// uses it.
func trimNote(w io.Writer, ms []analysis.Metric) {
	for _, m := range ms {
		if m == analysis.TTrim {
			fmt.Fprintf(w, "# t_trimmed: from the raw samples both sides have, each rank's mean without its slowest and fastest %.0f%% (one slow repetition moves no launch)\n", 100*analysis.TrimFrac)
			return
		}
	}
}

// Check writes the baseline check, then one line per regression.
func Check(w io.Writer, r *analysis.CheckResult) error {
	fmt.Fprintf(w, "# CHANGE: the move the wrong way (time up, bandwidth down) against the baseline's median;\n")
	fmt.Fprintf(w, "# ALLOWED: the larger of the tolerance and 3 x the baseline's spread (1.4826 MAD over its runs)\n")
	var ms []analysis.Metric
	for _, x := range r.Rows {
		ms = append(ms, x.Metric)
	}
	trimNote(w, ms)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BENCHMARK\tNP\tBYTES\tMETRIC\tBASELINE\t±SPREAD\tRUNS\tVALUE\tCHANGE\tALLOWED\tTOLERANCE\tVERDICT\t")
	for _, x := range r.Rows {
		change := "-"
		if !math.IsNaN(float64(x.Value)) {
			change = fmt.Sprintf("%+.1f%%", 100*x.Change)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s [%s]\t%s\t%s\t%d\t%s\t%s\t%.1f%%\t%s\t%s\t\n", x.Key.Benchmark, x.Key.NP, x.Key.Bytes,
			metricName(x.Metric), x.Metric.Unit(), Num(x.Base), Num(x.Spread), x.BaseRuns, Num(x.Value), change,
			100*x.Allowed, x.Tolerance, x.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "note: %s\n", warn)
	}
	if r.Missing > 0 {
		fmt.Fprintf(w, "note: %d baseline points are not in the run\n", r.Missing)
	}
	if r.Unconfirmed > 0 {
		fmt.Fprintf(w, "note: %d unconfirmed (beyond the limit at one size of one launch, no neighbour or other launch agreeing): rerun to confirm\n", r.Unconfirmed)
	}
	if r.Regressions == 0 {
		fmt.Fprintf(w, "PASS: no regression beyond the tolerances in %d points\n", len(r.Rows)-r.Missing)
		return nil
	}
	bySeries := map[analysis.Series][]string{}
	var order []analysis.Series
	for _, x := range r.Rows {
		if x.Verdict != analysis.VerdictRegression {
			continue
		}
		s := x.Key.Series()
		if _, ok := bySeries[s]; !ok {
			order = append(order, s)
		}
		bySeries[s] = append(bySeries[s], analysis.Size(x.Key.Bytes))
	}
	fmt.Fprintf(w, "FAIL: %d regressions\n", r.Regressions)
	for _, s := range order {
		fmt.Fprintf(w, "  %s at %s\n", seriesName(s), strings.Join(bySeries[s], ", "))
	}
	return nil
}

// Findings writes explain's findings for one run, titled.
func Findings(w io.Writer, title string, fs []analysis.Finding) error {
	fmt.Fprintf(w, "%s\n", title)
	if len(fs) == 0 {
		_, err := fmt.Fprintln(w, "  nothing stands out")
		return err
	}
	for _, f := range fs {
		fmt.Fprintf(w, "\n%-7s [%s] %s\n", strings.ToUpper(f.Severity), f.Kind, f.Summary)
		for _, n := range f.Numbers {
			wrap(w, "          ", n)
		}
		wrap(w, "  cause:  ", f.Cause)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// wrap writes text after prefix, wrapped at 100 columns, continuation
// lines indented like the prefix.
func wrap(w io.Writer, prefix, text string) {
	indent := strings.Repeat(" ", len([]rune(prefix)))
	line := prefix
	for _, word := range strings.Fields(text) {
		if len([]rune(line))+1+len([]rune(word)) > 100 && strings.TrimSpace(line) != strings.TrimSpace(prefix) {
			fmt.Fprintln(w, line)
			line = indent
		}
		if line != indent && line != prefix {
			line += " "
		}
		line += word
	}
	fmt.Fprintln(w, line)
}
