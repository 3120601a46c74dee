// Package congestiontext writes gomb congestion's text: a header saying
// which nodes run the canaries and which the congestors, a line per canary
// measurement as the rows arrive, and at the end the congestion impact
// factors (package analysis computes them; this package writes them, in
// GPCNeT's layout of isolated, congested and impact columns).
package congestiontext

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/result"
)

// Header is what the test is.
type Header struct {
	Tool   string
	Date   time.Time
	Argv   []string
	Layout congestion.Layout
	Opt    congestion.Options
}

// Writer writes the text output. Every call flushes.
type Writer struct {
	w *bufio.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Header writes the header and the column heads.
func (w *Writer) Header(h Header) error {
	o, l := h.Opt, h.Layout
	p := func(k, v string) { fmt.Fprintf(w.w, "# %-10s: %s\n", k, v) }
	fmt.Fprintf(w.w, "# %s: congestion impact (after GPCNeT's network_load_test)\n", h.Tool)
	p("Date", h.Date.Format(time.ANSIC))
	p("Command", strings.Join(h.Argv, " "))
	p("Nodes", fmt.Sprintf("%d; the first rank of each takes part", len(l.Nodes)))
	p("Canaries", fmt.Sprintf("%d nodes (%s)", len(l.Canaries), strings.Join(l.Hosts(l.Canaries), ", ")))
	for _, g := range l.Groups {
		p("Congestor", fmt.Sprintf("%s, %d bytes, %d operations a batch: %d nodes (%s)", g.Pattern, o.CongBytes,
			o.BatchOf(len(g.Nodes)), len(g.Nodes), strings.Join(l.Hosts(g.Nodes), ", ")))
	}
	if len(l.Dropped) > 0 {
		p("Left out", strings.Join(l.Dropped, ", ")+": a congestor needs 2 nodes")
	}
	p("Canary", fmt.Sprintf("%s: %d bytes, %d iterations after %d, to and from both ring neighbours; a sample half an iteration",
		congestion.RRLatency, o.LatBytes, o.LatIters, o.Warmup(congestion.RRLatency)))
	p("Canary", fmt.Sprintf("%s: %d x %d bytes to and from both neighbours and a barrier, %d iterations after 1",
		congestion.RRBandwidth, o.BWInflight, o.BWBytes, o.BWIters))
	p("Canary", fmt.Sprintf("%s: 8 bytes, MPI_SUM, %d calls after 1", congestion.Allreduce, o.ReduceIters))
	rings := fmt.Sprintf("%d random rings in turn", o.Rings)
	if o.Seed == 0 {
		rings = "the ring in host order"
	}
	p("Schedule", fmt.Sprintf("%d trials, each isolated then congested; a test's measurements (%s) for %gs, %d at most",
		o.Trials, rings, o.TestS, o.Measurements))
	fmt.Fprintln(w.w, "#")
	fmt.Fprintf(w.w, "# %5s  %-9s  %-10s  %12s  %12s  %12s  %12s\n", "trial", "phase", "canary", "t_avg[usec]", "t_p50[usec]",
		"t_p99[usec]", "Mbytes/sec")
	return w.w.Flush()
}

// Result writes a row's line.
func (w *Writer) Result(r *result.Result) error {
	if r.Congestion == nil {
		return nil
	}
	mbps := "-"
	if r.MBps > 0 {
		mbps = fmt.Sprintf("%.2f", r.MBps)
	}
	fmt.Fprintf(w.w, "  %5d  %-9s  %-10s  %12.2f  %12.2f  %12.2f  %12s\n", r.Congestion.Trial+1, r.Congestion.Phase,
		r.Benchmark, r.TAvgUS, r.P50US, r.P99US, mbps)
	return w.w.Flush()
}

// Footer writes the impact factors (nil: none measured).
func (w *Writer) Footer(c *analysis.Congestion) error {
	fmt.Fprintln(w.w, "#")
	if c != nil {
		if err := w.Impact(c); err != nil {
			return err
		}
	}
	return w.w.Flush()
}

// Impact writes the impact factors' table: GPCNeT's "Avg" and "99%" of
// each canary alone and congested, and the factors with their intervals
// over the trials.
func (w *Writer) Impact(c *analysis.Congestion) error {
	fmt.Fprintf(w.w, "# Congestion impact over %d trials (congested over isolated; bandwidth: isolated over congested; 1.0x: none)\n", c.Trials)
	fmt.Fprintf(w.w, "# %-10s  %-9s  %11s  %11s  %11s  %11s  %-20s  %s\n", "canary", "units", "isol. avg", "isol. 99%",
		"cong. avg", "cong. 99%", "CIF avg (95% CI)", "CIF 99% (95% CI)")
	for _, t := range c.Tests {
		fmt.Fprintf(w.w, "  %-10s  %-9s  %11.2f  %11.2f  %11.2f  %11.2f  %-20s  %s\n", t.Name, t.Units,
			t.Isolated.Avg, t.Isolated.P99, t.Congested.Avg, t.Congested.P99, factor(t.CIFAvg), factor(t.CIFP99))
	}
	for _, g := range c.Congestors {
		fmt.Fprintf(w.w, "# congestor %s on %s: %.2f MB/s while the canaries ran\n", g.Pattern, strings.Join(g.Hosts, ", "), g.MBps)
	}
	return w.w.Flush()
}

func factor(i analysis.Interval) string {
	if math.IsNaN(i.Low) {
		return fmt.Sprintf("%.2fx", i.Value)
	}
	return fmt.Sprintf("%.2fx (%.2f-%.2f)", i.Value, i.Low, i.High)
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error { return w.w.Flush() }
