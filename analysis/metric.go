// Package analysis interprets runs: A/B comparison by message size and
// size band, baseline checks for CI, and findings in plain words (explain).
// It reads runs (gomb records, imported logs, archived runs) and returns
// values; the text and HTML renderers format them and compute nothing.
package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/bench"
	"github.com/gomb-hpc/gomb/result"
)

// Metric is the number of a result that is compared.
type Metric string

// The metrics, named as the record fields.
const (
	TAvg Metric = "t_avg_us"
	TMin Metric = "t_min_us"
	TMax Metric = "t_max_us"
	BW   Metric = "mbytes_per_sec"
)

// ParseMetric reads a metric name; "" and "auto" are the primary metric.
func ParseMetric(s string) (Metric, error) {
	switch m := Metric(s); m {
	case "", "auto":
		return "", nil
	case TAvg, TMin, TMax, BW:
		return m, nil
	}
	return "", fmt.Errorf("unknown metric %q (auto, t_avg_us, t_min_us, t_max_us, mbytes_per_sec)", s)
}

// Value is the metric of a result (NaN where it has none).
func (m Metric) Value(r *result.Result) float64 {
	var v float64
	switch m {
	case TAvg:
		v = r.TAvgUS
	case TMin:
		v = r.TMinUS
	case TMax:
		v = r.TMaxUS
	case BW:
		v = r.MBps
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

// HigherIsBetter: bandwidth; times are better lower.
func (m Metric) HigherIsBetter() bool { return m == BW }

// Unit is the metric's unit in table headers.
func (m Metric) Unit() string {
	if m == BW {
		return "MB/s"
	}
	return "µs"
}

// Primary is the number a benchmark's own table leads with (its spec's
// bench.Lead), so that gomb's runs and imported logs of the same benchmark
// compare alike; t_avg for a benchmark no spec declares.
func Primary(suite, benchmark string) Metric {
	switch traitsOf(suite, benchmark).Lead {
	case bench.LeadMaxTime:
		return TMax
	case bench.LeadBandwidth:
		return BW
	}
	return TAvg
}

// Band is a range of message sizes, inclusive.
type Band struct {
	Label string `json:"label"`
	Lo    int64  `json:"lo"`
	Hi    int64  `json:"hi"`
}

// Bands are the size bands of an A/B summary: latency-bound, the protocol
// transition, and two bandwidth regimes (as in the IMB guide's example).
var Bands = []Band{
	{"0-32 B", 0, 32},
	{"64 B-4 KiB", 33, 4096},
	{"8-256 KiB", 4097, 256 << 10},
	{"512 KiB-4 MiB", 256<<10 + 1, math.MaxInt64},
}

// BandOf is the index in Bands of a size.
func BandOf(bytes int64) int {
	for i, b := range Bands {
		if bytes >= b.Lo && bytes <= b.Hi {
			return i
		}
	}
	return len(Bands) - 1
}

// Size writes a byte count the way the tables do: 512, 4 KiB, 1 MiB.
func Size(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
