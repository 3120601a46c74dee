// Package imbtext reads and writes IMB-MPI1's (and IMB-NBC's) text layout: the preamble, one table per
// benchmark and process count, the closing line. Column headers, widths
// (13 characters), number formats and failure rows are IMB-MPI1 2021's, so
// scripts that parse IMB output read gomb's unchanged. The writer formats
// what it is given; it computes nothing.
package imbtext

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Header is what the preamble shows.
type Header struct {
	Tool       string    // e.g. "gomb 0.1.0"
	Suite      string    // imb.Suite ("" too) or imb.SuiteNBC: the part the title names
	Date       time.Time // start of the run
	Machine    string    // uname -m
	System     string    // uname -s
	Release    string    // uname -r
	Version    string    // uname -v
	MPIVersion string    // MPI standard, e.g. "3.1"
	Thread     string    // thread level requested with -thread_level, else ""
	Argv       []string  // the command line
	UserSizes  bool      // -msglen / -msgsize given
	Capped     []int64   // user sizes above MaxMsg, measured at MaxMsg
	MaxMsg     int64     // 2^msglog max
	Type       string    // e.g. "MPI_BYTE"
	RedType    string    // e.g. "MPI_FLOAT"
	Benchmarks []string  // names in run order
	// Comments are the lines IMB prints under a benchmark's name in the
	// list (IMB-RMA's Compare_and_swap, Truly_passive_put).
	Comments map[string][]string
}

// preamble is a suite's blanks in the run header: after the calling
// sequence, after the reduction type, and the two closing lines.
type preamble struct{ argv, red, rule string }

var preambles = map[string]preamble{
	"":            {" ", " ", "# "},
	imb.Suite:     {" ", " ", "# "},
	imb.SuiteNBC:  {"", "", "#"},
	imb.SuiteMPI4: {"", "", "# "},
	imb.SuiteEXT:  {"", "", "#"},
	imb.SuiteRMA:  {" ", "", "# "},
	imb.SuiteIO:   {"", "", "#"},
}

// Writer renders a run as IMB-MPI1 text. Every call flushes, so the table
// grows as sizes finish.
type Writer struct {
	w     *bufio.Writer
	table *imb.Table
	large bool   // the current table's large-count rows were announced
	hdr   Header // the run's, for IMB-MPI1's int-overflow advice
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

func (w *Writer) printf(format string, a ...any) { fmt.Fprintf(w.w, format, a...) }

// Flush writes out buffered text.
func (w *Writer) Flush() error { return w.w.Flush() }

// Preamble writes IMB's run header.
func (w *Writer) Preamble(h Header) error {
	w.hdr = h
	line := "#" + strings.Repeat("-", 64)
	part, _ := imb.Part(h.Suite)
	if h.Suite == imb.SuiteIO { // IMB-IO 2021's banner ends in "partn", its rule on the same line
		w.printf("%s\n#    %s, %s partn%s\n", line, h.Tool, part, line)
	} else {
		w.printf("%s\n#    %s, %s part\n%s\n", line, h.Tool, part, line)
	}
	machineLines(w.w, h.Date, h.Machine, h.System, h.Release, h.Version, h.MPIVersion)
	w.printf("# MPI Thread Environment: %s\n", h.Thread)
	// The suites' preambles differ in their blanks: IMB-MPI1 ends the
	// calling sequence and the reduction type with a space, IMB-NBC and
	// IMB-MPI4 do not, IMB-RMA the first only; IMB-NBC's and IMB-EXT's two
	// closing "#" are bare, the others' not.
	// (IMB-NBC and IMB-MPI4 print the types as constants, IMB's defaults;
	// gomb the types used.)
	c := preambles[h.Suite]
	w.printf("\n\n# Calling sequence was: \n\n#")
	for _, a := range h.Argv {
		w.printf(" %s", a)
	}
	w.printf("%s\n\n", c.argv)
	what := "Message lengths"
	if h.Suite == imb.SuiteIO {
		what = "IO lengths"
	}
	if h.UserSizes {
		w.printf("# %s were user defined\n", what)
		if len(h.Capped) > 0 {
			w.printf("# Lengths above the maximum of %d bytes (-msglog) are measured at %d bytes:", h.MaxMsg, h.MaxMsg)
			for _, c := range h.Capped {
				w.printf(" %d", c)
			}
			w.printf("\n")
		}
	} else if h.Suite == imb.SuiteIO {
		w.printf("# Minimum io portion in bytes:   %d\n", 0)
		w.printf("# Maximum io portion in bytes:   %d\n", h.MaxMsg)
	} else {
		w.printf("# Minimum message length in bytes:   %d\n", 0)
		w.printf("# Maximum message length in bytes:   %d\n", h.MaxMsg)
	}
	w.printf("#\n")
	if h.Suite != imb.SuiteIO { // IMB-IO moves bytes and reduces nothing
		w.printf("# MPI_Datatype                   :   %s \n", h.Type)
		w.printf("# MPI_Datatype for reductions    :   %s%s\n", h.RedType, c.red)
		w.printf("# MPI_Op                         :   MPI_SUM  \n")
	}
	w.printf("%s\n%s\n\n# List of Benchmarks to run:\n\n", c.rule, c.rule)
	for _, b := range h.Benchmarks {
		w.printf("# %s\n", b)
		for _, c := range h.Comments[b] {
			w.printf("#     %s\n", c)
		}
	}
	return w.Flush()
}

// machineLines are the banner's lines of the machine and the MPI, the same
// in every IMB program.
func machineLines(w io.Writer, date time.Time, machine, system, release, version, mpiVersion string) {
	fmt.Fprintf(w, "# Date                  : %s\n", date.Format("Mon Jan _2 15:04:05 2006"))
	fmt.Fprintf(w, "# Machine               : %s\n", machine)
	fmt.Fprintf(w, "# System                : %s\n", system)
	fmt.Fprintf(w, "# Release               : %s\n", release)
	fmt.Fprintf(w, "# Version               : %s\n", version)
	fmt.Fprintf(w, "# MPI Version           : %s\n", mpiVersion)
}

func (w *Writer) cols(t *imb.Table) []string {
	var c []string
	if t.Multi == 1 {
		c = append(c, groupColumn)
	}
	for _, col := range columns(t) {
		c = append(c, col.name)
	}
	return c
}

// intRow prints IMB's " %4d" rows, 16 numbers a line.
func (w *Writer) intRow(v []int) {
	for i := 0; i < len(v); i += 16 {
		for _, x := range v[i:min(i+16, len(v))] {
			w.printf(" %4d", x)
		}
		w.printf("\n# ")
	}
}

// Table writes the header of one benchmark at one process count.
func (w *Writer) Table(t *imb.Table) error {
	w.table, w.large = t, false
	cols := w.cols(t)
	dashes := "#" + strings.Repeat("-", len(cols)*width-1)
	w.printf("\n%s\n", dashes)
	ngroups := len(t.Groups)
	if ngroups > 1 {
		w.printf("# Benchmarking Multi-%s ", t.Spec.Name)
	} else {
		w.printf("# Benchmarking %s ", t.Spec.Name)
	}
	idle := t.Idle
	if ngroups > 1 {
		w.printf("\n# ( %d groups of %d processes each running simultaneous ) \n", ngroups, t.NP)
		for g, ranks := range t.Groups {
			w.printf("# Group  %d: ", g)
			w.intRow(ranks)
			w.printf("\n")
		}
	} else if t.MapP > 1 && t.MapQ > 1 {
		w.printf("\n# #processes = %d; rank order (rowwise): \n", t.NP)
		ranks := t.Groups[0]
		for i, ip := 0, 0; i < t.MapP && ip < t.NP; i++ {
			py := t.World / t.MapP
			if i < t.World%t.MapP {
				py++
			}
			py = min(py, t.NP-ip)
			w.printf("# ")
			w.intRow(ranks[ip : ip+py])
			w.printf("\n")
			ip += py
		}
	} else {
		w.printf("\n# #processes = %d \n", t.NP)
	}
	if idle == 1 {
		w.printf("# ( %d additional process waiting in MPI_Barrier)\n", idle)
	} else if idle > 1 {
		w.printf("# ( %d additional processes waiting in MPI_Barrier)\n", idle)
	}
	w.printf("%s\n", dashes)
	switch t.Mode {
	case result.ModeAggregate:
		w.printf("#\n#    MODE: AGGREGATE \n#\n")
	case result.ModeNonAggregate:
		w.printf("#\n#    MODE: NON-AGGREGATE \n#\n")
	}
	for _, c := range cols {
		w.printf("%*s", width, c)
	}
	w.printf("\n")
	return w.Flush()
}

// Exploit writes IMB-IO's lines on its CPU exploit, before the first table
// of a run with non-blocking benchmarks.
func (w *Writer) Exploit(mflops float64) error {
	w.printf("\n\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an undisturbed\n# performance of %7.2f MFlops\n", mflops)
	return w.Flush()
}

// Confirm writes, before a benchmark's tables run again (gomb imb
// -confirm), why and which repeat follows; the reader marks the rows after
// it with their repeat.
func (w *Writer) Confirm(bench, why string, repeat, of int) error {
	w.printf("\n# confirm: %s tripped the baseline (%s): repeat %d of %d\n", bench, why, repeat, of)
	return w.Flush()
}

// Text hands f the output to write more than IMB's text (gomb imb
// -baseline's check table, after the footer), then flushes.
func (w *Writer) Text(f func(io.Writer) error) error {
	if err := f(w.w); err != nil {
		return err
	}
	return w.Flush()
}

// Invalid writes IMB's line for a benchmark that cannot run with np
// processes.
func (w *Writer) Invalid(s *imb.Spec, np int) error {
	w.printf("\n# !! Benchmark %s invalid for %d processes !! \n\n", s.Name, np)
	return w.Flush()
}

// Result writes one row of the current table.
func (w *Writer) Result(r *result.Result) error {
	if r.Status == result.StatusMPIError { // a comment, whatever the table
		w.printf("# %s\n", textfmt.MPIErrorNote(r))
		return w.Flush()
	}
	t := w.table
	if t == nil {
		return fmt.Errorf("imb text: result before table")
	}
	if r.LargeCount && r.Status == result.StatusOK && !w.large {
		w.large = true
		w.printf("# from %d bytes on: buffers past INT_MAX elements, sent through MPI-4's large-count calls (MPI_Send_c and the like)\n", r.Bytes)
	}
	groups := []int{r.Group}
	if t.Multi == 1 {
		if r.Group <= 0 {
			w.printf("\n") // IMB separates the sizes of a multi-group table
		}
		if r.Group < 0 { // a failure row stands for every group
			groups = groups[:0]
			for g := range t.Groups {
				groups = append(groups, g)
			}
		}
	}
	for _, g := range groups {
		var b strings.Builder
		if t.Multi == 1 {
			fmt.Fprintf(&b, "%*d", width, g)
		}
		switch r.Status {
		case result.StatusOutOfMem:
			fmt.Fprintf(&b, "%*d out-of-mem.; needed X=%8.3f GB; use flag \"-mem X\" or MAX_MEM_USAGE>=X (IMB_mem_info.h)",
				width, r.Bytes, (1000*r.NeededGB+1)/1000)
		case result.StatusTimeOut:
			fmt.Fprintf(&b, "%*d time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\" or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.",
				width, r.Bytes)
		case result.StatusIntOverflow:
			fmt.Fprintf(&b, "%*d int-overflow; The production rank*size caused int overflow;%s", width, r.Bytes, w.overflowAdvice(t))
		default:
			w.row(&b, t, r)
		}
		w.printf("%s\n", b.String())
	}
	if r.Reason != "" {
		w.printf("# %s: %s\n", r.Status, r.Reason)
	}
	if r.Check != nil && !r.Check.Passed {
		w.printf("# !! check failed: %s %d bytes, %d processes: %s\n", r.Benchmark, r.Bytes, r.NP, r.Check.Detail)
	}
	return w.Flush()
}

// overflowAdvice ends IMB-MPI1's int-overflow row as IMB 2021.11 does
// (get_overflow_message): the larger type to try, while the benchmark's
// type is smaller than a double; the other suites print nothing more.
func (w *Writer) overflowAdvice(t *imb.Table) string {
	if t.Spec.Suite != imb.Suite {
		return ""
	}
	name, flag := w.hdr.Type, "-data_type"
	if t.Spec.Reduction {
		name, flag = w.hdr.RedType, "-red_data_type"
	}
	if d, ok := kernel.DatatypeNamed(name); ok && d.Size() >= kernel.Double.Size() {
		return " Stopping benchmark"
	}
	return fmt.Sprintf(` use "%s double"`, flag)
}

func (w *Writer) row(b *strings.Builder, t *imb.Table, r *result.Result) {
	for _, c := range columns(t) {
		c.put(b, r)
	}
}

// Footer writes IMB's closing lines.
func (w *Writer) Footer() error {
	w.printf("\n\n# All processes entering MPI_Finalize\n\n")
	return w.Flush()
}
