// Package osutext reads and writes the OSU Micro-Benchmarks 7 text layout: the title
// line, the settings lines, the "# Size" header and rows formatted as OSU
// formats them (%-10d for the size, 18-character value columns, 12 for
// iterations; %17.2f for the barriers' single column), so scripts that read
// OSU output read gomb's unchanged. It formats what it is given.
package osutext

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Version is the OSU release whose layout gomb writes.
const Version = "7.2"

// Writer renders one OSU test. Every call flushes.
type Writer struct {
	w *bufio.Writer
	t *osu.Table
	// logged: the table is an imported log's, version its OSU release
	// ("" when its title named none), datatype whether it had a
	// "# Datatype" line (OSU 5 and 6 print none)
	logged   bool
	version  string
	datatype bool
	// title: an imported log's title line as it was ("OSU MPI-CUDA
	// Latency Test v5.8"), written back so
	title string
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

// Table writes the title and header lines of a test.
func (w *Writer) Table(t *osu.Table) error {
	w.t = t
	s, o := t.Spec, t.Opt
	if n := t.Nbr; n != nil { // OSU's neighbourhood lines, before the blank line
		if n.Kind == "cart" {
			w.printf("Dimensions size = ")
			for _, d := range n.Dims {
				w.printf("%d ", d)
			}
			w.printf("\n")
		}
		w.printf("Time took to create topology graph:%.2f us.\n", t.NbrCreateUS)
	}
	if leadingBlank(s) {
		w.printf("\n")
	}
	if s.Kind == osu.Startup { // osu_init, osu_hello: the title, then one line
		w.printf("# %s%s\n", s.Title, w.release(s))
		return w.w.Flush()
	}
	if s.Threads { // before the title, as osu_latency_mt prints them
		w.printf("# Number of Sender threads: %d \n# Number of Receiver threads: %d\n", o.SendThreads, o.RecvThreads)
	}
	if s.Processes { // osu_latency_mp's
		w.printf("# Number of forked processes in sender: %d\n# Number of forked processes in receiver: %d\n", o.SendProcs, o.RecvProcs)
	}
	if o.DDT != nil && (s.Kind == osu.Latency || s.Kind == osu.Bandwidth || s.Kind == osu.MsgRate) {
		// OSU's point-to-point line before the title, whatever the type
		w.printf("# Set Derived DataTypes block_length to %d, stride to %d\n", o.DDT.BlockLen, o.DDT.Stride)
	}
	switch {
	case w.title != "":
		w.printf("# %s\n", w.title)
	case strings.HasPrefix(s.Title, "gomb"): // gomb's own test: no OSU version to claim
		w.printf("# %s\n", s.Title)
	default:
		w.printf("# %s%s\n", s.Title, w.release(s))
	}
	if o.Device != "" {
		w.printf("# Send Buffer on %s (%c) and Receive Buffer on %s (%c)\n",
			placeName(o.Place[0]), o.Place[0], placeName(o.Place[1]), o.Place[1])
		if t.Staged {
			w.printf("# The MPI library is not CUDA-aware: device data is staged through host memory\n")
		}
	}
	switch {
	// gomb's line: OSU 7.4 prints one title for both fan tests and osu_bw
	case s.IsFan() && t.Fan != nil:
		w.printf("# [ %s ] [ nodes: %d ] [ processes per node: %d ] [ window size: %d ]\n",
			fanWord(s), t.Fan.Nodes, t.Fan.PPN, o.Window)
	case s.IsFan(): // an imported OSU log: the layout unknown
		w.printf("# [ %s ] [ window size: %d ]\n", fanWord(s), o.Window)
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
	if w.logged && !w.datatype {
		datatype = ""
	}
	var head strings.Builder
	if s.NoSize {
		fmt.Fprintf(&head, "# %s", cols[0].name)
		cols = cols[1:]
	} else {
		fmt.Fprintf(&head, "%-*s", colSize.width, "# "+colSize.name)
	}
	for _, c := range cols {
		fmt.Fprintf(&head, "%*s", max(c.width, c.head), c.name)
	}
	switch k := s.Kind; {
	case (k == osu.Latency || k == osu.Bandwidth || k == osu.OneWay) && !s.IsFan():
		// point-to-point (OSU 7.2): the header, then the data type
		w.printf("%s\n%s", head.String(), datatype)
	case k == osu.MsgRate:
		w.printf("%s\n", head.String())
	default:
		if !s.NoSize {
			w.printf("%s", datatype)
		}
		w.printf("%s\n", head.String())
	}
	return w.w.Flush()
}

// release is the " vX.Y" of a test's title: the log's own release for an
// imported log, else the one gomb's layout follows (a newer one where the
// test is newer).
func (w *Writer) release(s *osu.Spec) string {
	v := Version
	switch {
	case w.logged:
		v = w.version
	case s.Version != "":
		v = s.Version
	}
	if v == "" {
		return ""
	}
	return " v" + v
}

// Result writes one row.
func (w *Writer) Result(r *result.Result) error {
	if r.Status == result.StatusMPIError { // a comment, whatever the table
		return w.Comment(textfmt.MPIErrorNote(r))
	}
	t := w.t
	if t == nil {
		return fmt.Errorf("osu text: result before table")
	}
	s := t.Spec
	switch {
	case s.Kind == osu.NonBlocking && r.NBC == nil:
		return fmt.Errorf("osu text: %s row without non-blocking times", r.Benchmark)
	case s.Kind == osu.OneWay && r.OneWay == nil:
		return fmt.Errorf("osu text: one-way row without one-way times")
	}
	if s.Kind == osu.Startup {
		if s.Name == "init" { // whole milliseconds, as osu_init prints them
			w.printf("nprocs: %d, min: %d ms, max: %d ms, avg: %d ms\n", r.NP,
				int64(r.TMinUS/1e3), int64(r.TMaxUS/1e3), int64(r.TAvgUS/1e3))
		} else {
			w.printf("This is a test with %d processes\n", r.NP)
		}
		return w.w.Flush()
	}
	var b strings.Builder
	if !s.NoSize {
		colSize.put(&b, colSize.width, r)
	}
	for i, c := range columns(t) {
		w := c.width
		if i == 0 && s.NoSize {
			w = 17 // the barriers' single column: %17.2f after "# "
		}
		c.put(&b, w, r)
	}
	w.printf("%s\n", b.String())
	if r.Check != nil && !r.Check.Passed {
		w.printf("# validation failed: %s %d bytes: %s\n", r.Benchmark, r.Bytes, r.Check.Detail)
	}
	return w.w.Flush()
}

// Between separates the table of test s from the one before (several
// tests in one job) by a blank line, where its own lines do not start
// with one.
func (w *Writer) Between(s *osu.Spec) error {
	if !leadingBlank(s) || s.Neighbour() {
		w.printf("\n")
	}
	return w.w.Flush()
}

// leadingBlank: OSU's collective and fan tables start with a blank line
// (the neighbourhood ones after their topology lines).
func leadingBlank(s *osu.Spec) bool {
	return s.Kind == osu.Collective || s.Kind == osu.NonBlocking || s.IsFan()
}

// Comment writes lines as OSU's comment lines ("# "), which readers of
// OSU text skip.
func (w *Writer) Comment(lines ...string) error {
	for _, l := range lines {
		w.printf("# %s\n", l)
	}
	return w.w.Flush()
}

// Graphs draws -G tty's graphs after a test's table, as OSU draws its
// terminal graphs: for every size its value at each timed iteration,
// titled "Size: N, Avg: V" with OSU's axis labels, width columns wide.
// Where the iterations outnumber the columns, a column shows the most of
// its iterations, so that no spike is averaged away.
func (w *Writer) Graphs(gs []osu.Graph, width int) error {
	cols := max(width-12, 20)
	for _, g := range gs {
		v, per := g.Values, 1
		if len(v) > cols {
			per = (len(v) + cols - 1) / cols
			v = make([]float64, 0, cols)
			for i := 0; i < len(g.Values); i += per {
				v = append(v, slices.Max(g.Values[i:min(i+per, len(g.Values))]))
			}
		}
		caption := fmt.Sprintf("%s by Iteration Count (1-%d)", g.Unit, len(g.Values))
		if per > 1 {
			caption += fmt.Sprintf(", a column the most of %d", per)
		}
		w.printf("\n# Size: %d, Avg: %.2f\n", g.Bytes, g.Avg)
		w.printf("%s\n", asciigraph.Plot(v, asciigraph.Height(12), asciigraph.Precision(2), asciigraph.Caption(caption)))
	}
	return w.w.Flush()
}

// Flush writes out buffered text.
func (w *Writer) Flush() error { return w.w.Flush() }

// fanWord names a fan test in gomb's layout line.
func fanWord(s *osu.Spec) string {
	if s.Job.FanOut {
		return "fan-out"
	}
	return "fan-in"
}
