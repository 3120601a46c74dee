// Package osu writes the OSU Micro-Benchmarks 7 text layout: the title
// line, the settings lines, the "# Size" header and rows formatted as OSU
// formats them (%-10d for the size, 18-character value columns, 12 for
// iterations; %17.2f for the barriers' single column), so scripts that read
// OSU output read gomb's unchanged. It formats what it is given.
package osutext

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/gomb-hpc/gomb/bench/osu"
	"github.com/gomb-hpc/gomb/result"
)

// Version is the OSU release whose layout gomb writes.
const Version = "7.2"

const width = 18 // OSU's FIELD_WIDTH

// Writer renders one OSU test. Every call flushes.
type Writer struct {
	w *bufio.Writer
	t *osu.Table
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

func (w *Writer) printf(format string, a ...any) { fmt.Fprintf(w.w, format, a...) }

func placeName(c byte) string {
	if c == 'D' {
		return "DEVICE"
	}
	return "HOST"
}

// columns lists the value columns after the size (or the first column of
// tests without a size).
func columns(t *osu.Table) []string {
	s, o := t.Spec, t.Opt
	var c []string
	switch s.Kind {
	case osu.Latency, osu.RMALatency:
		c = []string{"Latency (us)"}
	case osu.Bandwidth, osu.RMABandwidth:
		c = []string{"Bandwidth (MB/s)"}
	case osu.MsgRate:
		c = []string{"MB/s", "Messages/s"}
	case osu.Collective:
		c = []string{"Avg Latency(us)"}
		if o.Full {
			c = append(c, "Min Latency(us)", "Max Latency(us)", "Iterations")
		}
	case osu.NonBlocking:
		if o.Full {
			c = []string{"Overall(us)", "Compute(us)", "Coll. Init(us)", "MPI_Test(us)", "MPI_Wait(us)",
				"Pure Comm.(us)", "Min Comm.(us)", "Max Comm.(us)", "Overlap(%)"}
		} else {
			c = []string{"Overall(us)", "Compute(us)", "Pure Comm.(us)", "Overlap(%)"}
		}
	case osu.OneWay:
		c = []string{"RTT/2 (us)", "0->1 (us)", "1->0 (us)", "+-Sync (us)"}
	}
	if o.Percentiles {
		c = append(c, "P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)")
	}
	if o.Validate {
		c = append(c, "Validation")
	}
	return c
}

// Table writes the title and header lines of a test.
func (w *Writer) Table(t *osu.Table) error {
	w.t = t
	s, o := t.Spec, t.Opt
	if s.Kind == osu.Collective || s.Kind == osu.NonBlocking {
		w.printf("\n")
	}
	if strings.HasPrefix(s.Title, "gomb") { // gomb's own test: no OSU version to claim
		w.printf("# %s\n", s.Title)
	} else {
		w.printf("# %s v%s\n", s.Title, Version)
	}
	if o.Device != "" {
		w.printf("# Send Buffer on %s (%c) and Receive Buffer on %s (%c)\n",
			placeName(o.Place[0]), o.Place[0], placeName(o.Place[1]), o.Place[1])
		if t.Staged {
			w.printf("# The MPI library is not CUDA-aware: device data is staged through host memory\n")
		}
	}
	switch s.Kind {
	case osu.MsgRate:
		w.printf("# [ pairs: %d ] [ window size: %d ]\n", t.NP/2, o.Window)
	case osu.RMALatency, osu.RMABandwidth:
		w.printf("# Window creation: %s\n# Synchronization: %s\n", osu.WinName(t.Win), osu.SyncName(t.Sync))
	case osu.NonBlocking:
		w.printf("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n")
	case osu.OneWay:
		w.printf("# Clocks synchronised by ping-pong before and after each size; each direction is good to +- the sync error\n")
	}
	cols := columns(t)
	datatype := fmt.Sprintf("# Datatype: %s.\n", o.ElemType(s))
	var head strings.Builder
	if s.NoSize {
		fmt.Fprintf(&head, "# %s", cols[0])
		cols = cols[1:]
	} else {
		fmt.Fprintf(&head, "%-10s", "# Size")
	}
	for _, c := range cols {
		cw := width
		if c == "Iterations" {
			cw = 12
		}
		fmt.Fprintf(&head, "%*s", cw, c)
	}
	switch s.Kind {
	case osu.Latency, osu.Bandwidth, osu.OneWay:
		// point-to-point: the header, then the data type
		w.printf("%s\n%s", head.String(), datatype)
	case osu.MsgRate:
		w.printf("%s\n", head.String())
	default:
		if !s.NoSize {
			w.printf("%s", datatype)
		}
		w.printf("%s\n", head.String())
	}
	return w.w.Flush()
}

// Result writes one row.
func (w *Writer) Result(r *result.Result) error {
	t := w.t
	if t == nil {
		return fmt.Errorf("osu text: result before table")
	}
	s, o := t.Spec, t.Opt
	var b strings.Builder
	f := func(v float64) { fmt.Fprintf(&b, "%*.2f", width, v) }
	if !s.NoSize {
		fmt.Fprintf(&b, "%-10d", r.Bytes)
	}
	switch s.Kind {
	case osu.Latency, osu.RMALatency:
		f(r.TAvgUS)
	case osu.Bandwidth, osu.RMABandwidth:
		f(r.MBps)
	case osu.MsgRate:
		f(r.MBps)
		f(r.MsgPerSec)
	case osu.Collective:
		if s.NoSize {
			fmt.Fprintf(&b, "%17.2f", r.TAvgUS)
		} else {
			f(r.TAvgUS)
		}
		if o.Full {
			f(r.TMinUS)
			f(r.TMaxUS)
			fmt.Fprintf(&b, "%12d", r.Repetitions)
		}
	case osu.NonBlocking:
		n := r.NBC
		if n == nil {
			return fmt.Errorf("osu text: %s row without non-blocking times", r.Benchmark)
		}
		first := true
		g := func(v float64) {
			if first && s.NoSize {
				fmt.Fprintf(&b, "%17.2f", v)
			} else {
				f(v)
			}
			first = false
		}
		g(n.OverallUS)
		g(n.ComputeUS)
		if o.Full {
			g(n.InitUS)
			g(n.TestUS)
			g(n.WaitUS)
			g(n.PureUS)
			g(n.MinCommUS)
			g(n.MaxCommUS)
		} else {
			g(n.PureUS)
		}
		g(n.OverlapPct)
	case osu.OneWay:
		ow := r.OneWay
		if ow == nil {
			return fmt.Errorf("osu text: one-way row without one-way times")
		}
		f(ow.HalfRTTUS)
		f(ow.ForwardUS)
		f(ow.BackwardUS)
		f(ow.ErrorUS)
	}
	if o.Percentiles {
		f(r.P50US)
		f(r.P90US)
		f(r.P99US)
	}
	if o.Validate {
		v := "Pass"
		if r.Check != nil && !r.Check.Passed {
			v = "Fail"
		}
		fmt.Fprintf(&b, "%*s", width, v)
	}
	w.printf("%s\n", b.String())
	if r.Check != nil && !r.Check.Passed {
		w.printf("# validation failed: %s %d bytes: %s\n", r.Benchmark, r.Bytes, r.Check.Detail)
	}
	return w.w.Flush()
}

// Flush writes out buffered text.
func (w *Writer) Flush() error { return w.w.Flush() }
