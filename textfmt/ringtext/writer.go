// Package ring writes the ring monitor's output: mpi-comm-bench's header
// and per-sample lines, gomb's summary, and the OpenMetrics text file for
// node_exporter's textfile collector. It formats what it is given.
package ringtext

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
)

// Writer writes the text output. Every call flushes.
type Writer struct{ w *bufio.Writer }

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{bufio.NewWriter(w)} }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Header writes mpi-comm-bench's header.
func (w *Writer) Header(o ring.Options) error {
	m := float64(o.MsgSize)
	fmt.Fprintf(w.w, "Ring comm benchmark.\n")
	fmt.Fprintf(w.w, "Message size:   %d bytes (~%s MB, ~%s GB).\n", o.MsgSize, g6(m/1e6), g6(m/1e9))
	fmt.Fprintf(w.w, "Interval:       %s seconds.\n", g6(o.IntervalS))
	fmt.Fprintf(w.w, "GPU mode:       %s\n", onOff(o.GPU))
	fmt.Fprintf(w.w, "Mem copy local: %s\n", onOff(o.MemCopyLocal))
	return w.w.Flush()
}

// g6 formats like a C++ stream's default: 6 significant digits.
// sampleLine is a sample as mpi-comm-bench prints it: bandwidth over the
// ranks (GB/s), then duration (ms), min, max and average; the reader
// finds samples by its start and reads its six numbers in this order.
const sampleLine = "Bandwidth (send + recv): min = %10.3f GB/s | max = %10.3f GB/s | avg = %10.3f GB/s || " +
	"Duration (send + recv): min = %10.3f ms | max = %10.3f ms | avg = %10.3f ms\n"

func g6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// Sample writes one sample line; the cold first sample is labelled, as it
// is kept out of the statistics.
func (w *Writer) Sample(s ring.Sample) error {
	if s.Cold {
		fmt.Fprintf(w.w, "First sample (cold, not in the summary): ")
	}
	fmt.Fprintf(w.w, sampleLine, s.MinGBps, s.MaxGBps, s.AvgGBps, s.MinS*1e3, s.MaxS*1e3, s.AvgS*1e3)
	return w.w.Flush()
}

// Summary writes the closing summary.
func (w *Writer) Summary(sum ring.Summary, ranks int) error {
	fmt.Fprintf(w.w, "Summary: %d samples after the cold one (%.3f ms), %d ranks; the ring moves at its slowest rank's pace:\n",
		sum.Samples, sum.ColdS*1e3, ranks)
	if sum.Samples == 0 {
		fmt.Fprintf(w.w, "  no warm samples\n")
		return w.w.Flush()
	}
	fmt.Fprintf(w.w, "  Duration (send + recv), slowest rank: median = %.3f ms | p99 = %.3f ms\n", sum.MedianS*1e3, sum.P99S*1e3)
	fmt.Fprintf(w.w, "  Bandwidth (send + recv), slowest rank: median = %.3f GB/s | p01 = %.3f GB/s\n", sum.MedianGBps, sum.P01GBps)
	verdict := "within what chance gives"
	if sum.Samples >= 10 && ranks > 1 && float64(sum.StragglerCount) > 2*sum.Expected {
		verdict = "a straggler"
	}
	fmt.Fprintf(w.w, "  Slowest most often: rank %d (host %s) in %d of %d samples (%.1f expected by chance): %s\n",
		sum.Straggler, sum.StragglerHost, sum.StragglerCount, sum.Samples, sum.Expected, verdict)
	return w.w.Flush()
}

// Prom rewrites path atomically (a temporary file in the same directory,
// then rename) with the last sample and the summary so far as OpenMetrics
// gauges, which node_exporter's textfile collector reads.
func Prom(path string, s ring.Sample, sum ring.Summary, msg int64, hosts []string) error {
	var b strings.Builder
	gauge := func(name, help string, lines ...string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s%s\n", name, l)
		}
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	gauge("gomb_ring_bandwidth_gigabytes_per_second", "Ring bandwidth (send + recv) over the ranks in the last sample, GB = 10^9 bytes.",
		`{stat="min"} `+num(s.MinGBps), `{stat="max"} `+num(s.MaxGBps), `{stat="avg"} `+num(s.AvgGBps))
	gauge("gomb_ring_duration_seconds", "Ring send+recv duration over the ranks in the last sample.",
		`{stat="min"} `+num(s.MinS), `{stat="max"} `+num(s.MaxS), `{stat="avg"} `+num(s.AvgS))
	var ranks []string
	for i, d := range s.DurS {
		h := ""
		if i < len(hosts) {
			h = hosts[i]
		}
		ranks = append(ranks, fmt.Sprintf(`{rank="%d",host=%s} %s`, i, strconv.Quote(h), num(d)))
	}
	gauge("gomb_ring_rank_duration_seconds", "Each rank's send+recv duration in the last sample.", ranks...)
	gauge("gomb_ring_message_bytes", "Bytes each rank sends (and receives) per sample.", " "+strconv.FormatInt(msg, 10))
	gauge("gomb_ring_samples", "Warm samples taken since the start.", " "+strconv.Itoa(sum.Samples))
	gauge("gomb_ring_slowest_rank", "The rank slowest in the last sample.", " "+strconv.Itoa(s.Slowest))
	if sum.Samples > 0 {
		gauge("gomb_ring_median_duration_seconds", "Median of the slowest rank's duration over the warm samples.", " "+num(float64(sum.MedianS)))
		gauge("gomb_ring_p99_duration_seconds", "99th percentile of the slowest rank's duration over the warm samples.", " "+num(float64(sum.P99S)))
		gauge("gomb_ring_straggler_rank", "The rank most often slowest.", " "+strconv.Itoa(sum.Straggler))
		gauge("gomb_ring_straggler_samples", "Samples in which the straggler rank was slowest.", " "+strconv.Itoa(sum.StragglerCount))
	}
	gauge("gomb_ring_last_sample_timestamp_seconds", "When the last sample was taken, Unix time.",
		" "+num(float64(s.Time.UnixNano())/1e9))
	b.WriteString("# EOF\n")

	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--prom: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("--prom: %w", err)
	}
	_ = f.Chmod(0o644)
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("--prom: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("--prom: %w", err)
	}
	return nil
}

// Flush writes out buffered text.
func (w *Writer) Flush() error { return w.w.Flush() }
