package imbtext

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// P2PHeader is what IMB-P2P's preamble shows. IMB-P2P is a program of its
// own, and its text differs from the other suites': no data types, the
// list before the sizes, bare "#" lines, columns of " %12".
type P2PHeader struct {
	Tool       string // e.g. "gomb 0.1.0 (IMB-P2P 2021.11 compatible)"
	Date       time.Time
	Machine    string
	System     string
	Release    string
	Version    string
	MPIVersion string
	Argv       []string
	Benchmarks []string
	MinSize    int64
	MaxSize    int64
}

// P2PWriter renders a run as IMB-P2P text. Every call flushes.
type P2PWriter struct{ w *bufio.Writer }

// NewP2PWriter returns a P2PWriter to w.
func NewP2PWriter(w io.Writer) *P2PWriter { return &P2PWriter{w: bufio.NewWriter(w)} }

func (w *P2PWriter) printf(format string, a ...any) { fmt.Fprintf(w.w, format, a...) }

// Flush writes out buffered text.
func (w *P2PWriter) Flush() error { return w.w.Flush() }

// Preamble writes IMB-P2P's run header.
func (w *P2PWriter) Preamble(h P2PHeader) error {
	line := "#" + strings.Repeat("-", 60)
	w.printf("%s\n#    %s, IMB-P2P part\n%s\n", line, h.Tool, line)
	machineLines(w.w, h.Date, h.Machine, h.System, h.Release, h.Version, h.MPIVersion)
	w.printf("# MPI Thread Environment:\n#\n# Calling sequence was:\n#\n#")
	for _, a := range h.Argv {
		w.printf(" %s", a)
	}
	w.printf("\n#\n# List of Benchmarks to run:\n#\n")
	for _, b := range h.Benchmarks {
		w.printf("# %s\n", b)
	}
	w.printf("#\n# Minimum message length in bytes:   %d\n", h.MinSize)
	w.printf("# Maximum message length in bytes:   %d\n#\n", h.MaxSize)
	return w.Flush()
}

// Table writes the header of a benchmark's table; title is the benchmark
// as IMB-P2P names it there ("Stencil2D (2 x 2)").
func (w *P2PWriter) Table(title string, np int) error {
	dashes := "#" + strings.Repeat("-", 64)
	w.printf("\n%s\n# Benchmarking %s\n# #processes = %d\n%s\n", dashes, title, np, dashes)
	w.printf(" %12s %12s %12s %12s %12s\n", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec")
	return w.Flush()
}

// Invalid writes IMB-P2P's line for a benchmark that does not run.
func (w *P2PWriter) Invalid(line string) error {
	w.printf("\n%s\n", line)
	return w.Flush()
}

// Result writes one row: IMB-P2P's t, Mbytes/sec and Msg/sec.
func (w *P2PWriter) Result(r *result.Result) error {
	if r.Status == result.StatusMPIError {
		w.printf("# %s\n", textfmt.MPIErrorNote(r))
		return w.Flush()
	}
	w.printf(" %12d %12d %12.2f %12.2f %12.0f\n", r.Bytes, r.Repetitions, r.TAvgUS, r.MBps, r.MsgPerSec)
	return w.Flush()
}

// Footer writes IMB-P2P's closing lines.
func (w *P2PWriter) Footer() error {
	w.printf("\n\n# All processes entering MPI_Finalize\n\n")
	return w.Flush()
}
