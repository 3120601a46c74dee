package imbtext

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// MTWriter renders a run as IMB-MT text: a four-line banner (none with
// -noheader), a table per benchmark with the threads in its header, IMB-MT's
// "% 13" columns. Every call flushes.
type MTWriter struct{ w *bufio.Writer }

// NewMTWriter returns an MTWriter to w.
func NewMTWriter(w io.Writer) *MTWriter { return &MTWriter{w: bufio.NewWriter(w)} }

func (w *MTWriter) printf(format string, a ...any) { fmt.Fprintf(w.w, format, a...) }

// Flush writes out buffered text.
func (w *MTWriter) Flush() error { return w.w.Flush() }

// Preamble writes IMB-MT's banner; tool is e.g. "gomb 0.1.0 (IMB-MT
// 2021.11 compatible)".
func (w *MTWriter) Preamble(tool string) error {
	line := "#" + strings.Repeat("-", 66)
	w.printf("%s\n#    %s, MT part    \n%s\n#\n", line, tool, line)
	return w.Flush()
}

var mtDashes = "#" + strings.Repeat("-", 77)

// mtColumns are a format's column headers.
func mtColumns(f mt.Format) []string {
	switch f {
	case mt.Band:
		return []string{"#bytes", "#repetitions", "t_avg[usec]", "Mbytes/sec", "Msg/sec"}
	case mt.Collective:
		return []string{"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"}
	case mt.Sync:
		return []string{"#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"}
	}
	return []string{"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"}
}

// Table writes a benchmark's table header: np ranks with a result, threads
// a rank; window for the band benchmarks.
func (w *MTWriter) Table(s *mt.Spec, np, threads, window int) error {
	w.printf("\n%s\n# Benchmarking %s\n# #processes = %d (threads: %d)\n", mtDashes, s.Name, np, threads)
	if s.Window {
		w.printf("# window_size = %d\n", window)
	}
	w.printf("%s\n", mtDashes)
	for _, c := range mtColumns(s.Format) {
		w.printf("% 13s", c)
	}
	w.printf("\n")
	return w.Flush()
}

// NoResults writes IMB-MT's block for a benchmark no thread ran.
func (w *MTWriter) NoResults(s *mt.Spec) error {
	w.printf("\n%s\n# Benchmarking %s\n# NO SUCCESSFUL EXECUTIONS\n%s\n\n", mtDashes, s.Name, mtDashes)
	return w.Flush()
}

// Result writes a row of the format of s.
func (w *MTWriter) Result(s *mt.Spec, r *result.Result) error {
	if r.Status == result.StatusMPIError {
		w.printf("# %s\n", textfmt.MPIErrorNote(r))
		return w.Flush()
	}
	if !s.Sizeless() {
		w.printf("% 13d", r.Bytes)
	}
	w.printf("% 13d", r.Repetitions)
	switch s.Format {
	case mt.Band:
		w.printf("% 13.2f% 13.2f% 13d", r.TAvgUS, r.MBps, int64(r.MsgPerSec))
	default:
		w.printf("% 13.2f% 13.2f% 13.2f", r.TMinUS, r.TMaxUS, r.TAvgUS)
		if s.Format == mt.PointToPoint {
			w.printf("% 13.2f", r.MBps)
		}
	}
	w.printf("\n")
	if r.Check != nil && !r.Check.Passed {
		w.printf("# !! check failed: %s %d bytes: %s\n", r.Benchmark, r.Bytes, r.Check.Detail)
	}
	return w.Flush()
}

// Footer writes IMB-MT's closing line.
func (w *MTWriter) Footer() error {
	w.printf("\n")
	return w.Flush()
}
