// Package fleettext writes gomb fleet's text: a header saying what the
// sweep measures, then a line per pair as its two rows arrive. It formats
// what it is given; the verdict on nodes and links is gomb explain's. The
// text is for people: the records (-json) are what gomb reads back.
package fleettext

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/result"
)

// Header is what the sweep is.
type Header struct {
	Tool     string
	Date     time.Time
	Argv     []string
	Nodes    []fleet.Node
	Opt      fleet.Options
	Rounds   int    // rounds of one sweep
	Pairs    int    // pairs of one sweep
	MaxPairs int    // the most pairs of a round
	Resumed  int    // pairs taken over from an earlier sweep (-resume), of all sweeps
	From     string // its run id
}

// Writer writes the text output. Every call flushes.
type Writer struct {
	w     *bufio.Writer
	hostW int
	local bool           // several ranks a node: each named host#k
	lat   *result.Result // the pair's latency row, until its bandwidth row
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w), hostW: 6} }

// Header writes the header and the column heads.
func (w *Writer) Header(h Header) error {
	o := h.Opt
	var names []string
	for _, n := range h.Nodes {
		names = append(names, n.Host)
		w.hostW = max(w.hostW, len(n.Host)) // host:rank with -by-rank
	}
	if w.local = o.PerNode != fleet.PerNodeOne; w.local {
		w.hostW += 3 // "#k", the local rank
	}
	each := "its first rank takes part"
	switch o.PerNode {
	case fleet.PerNodeAll:
		each = "every rank, each with the same local rank of the partner"
	case fleet.PerNodeCross:
		each = "every rank, with every rank of the partner"
	}
	at := fmt.Sprintf("up to %d pairs at once", h.MaxPairs)
	if o.Serial || h.MaxPairs == 1 {
		at = "one pair at a time"
	}
	p := func(k, v string) { fmt.Fprintf(w.w, "# %-10s: %s\n", k, v) }
	fmt.Fprintf(w.w, "# %s: pairwise latency and bandwidth\n", h.Tool)
	p("Date", h.Date.Format(time.ANSIC))
	p("Command", strings.Join(h.Argv, " "))
	p("Nodes", fmt.Sprintf("%d (%s); %s", len(h.Nodes), strings.Join(names, ", "), each))
	sweeps := "1 sweep"
	if o.Sweeps != 1 {
		sweeps = fmt.Sprintf("%d sweeps", o.Sweeps)
	}
	p("Schedule", fmt.Sprintf("%d rounds, %d pairs, %s; %s", h.Rounds, h.Pairs, at, sweeps))
	if o.Resume != "" {
		p("Resumed", fmt.Sprintf("%d of %d pairs measured by run %s (%s), their lines first", h.Resumed, h.Pairs*o.Sweeps, h.From, o.Resume))
	}
	budget := ""
	if o.BudgetS > 0 {
		budget = fmt.Sprintf(", or what fits in %gs", o.BudgetS)
	}
	p("Latency", fmt.Sprintf("%d bytes, %d round trips%s, after %d untimed; half a round trip", o.LatBytes, o.LatIters, budget, max(1, o.Warmup)))
	p("Bandwidth", fmt.Sprintf("%d bytes, %d windows of %d messages%s, after %d untimed; first node to second", o.BWBytes, o.BWIters, o.Window, budget, o.BWWarmup()))
	fmt.Fprintln(w.w, "#")
	fmt.Fprintf(w.w, "# %5s  %-*s  %-*s  %12s  %12s  %12s  %12s\n", "round", w.hostW, "node A", w.hostW, "node B",
		"t_p50[usec]", "t_avg[usec]", "t_p99[usec]", "Mbytes/sec")
	return w.w.Flush()
}

// Result takes a row: the pair's line is written when its bandwidth row
// follows its latency row.
func (w *Writer) Result(r *result.Result) error {
	if r.Pair == nil {
		return nil
	}
	if r.Benchmark == fleet.Latency {
		w.lat = r
		return nil
	}
	lat := w.lat
	w.lat = nil
	if lat == nil || lat.Pair.Ranks != r.Pair.Ranks {
		return fmt.Errorf("fleet text: a bandwidth row without its latency row")
	}
	a, b := fleet.NodeOf(r.Pair, 0, w.local), fleet.NodeOf(r.Pair, 1, w.local)
	fmt.Fprintf(w.w, "  %5d  %-*s  %-*s  %12.2f  %12.2f  %12.2f  %12.2f\n", r.Pair.Round+1, w.hostW, a, w.hostW, b,
		lat.P50US, lat.TAvgUS, lat.P99US, r.MBps)
	return w.w.Flush()
}

// Footer closes the table.
func (w *Writer) Footer() error {
	fmt.Fprintln(w.w, "#")
	fmt.Fprintln(w.w, "# Which node or link is slow: gomb explain on the records (-json).")
	return w.w.Flush()
}

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.w.Flush() }
