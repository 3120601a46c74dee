// Package analysis interprets runs: A/B comparison by message size and
// size band, baseline checks for CI, and findings in plain words (explain).
// It reads runs (gomb records, imported logs, archived runs) and returns
// values; the text and HTML renderers format them and compute nothing.
package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/stats"
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
	// Efficiency is bandwidth as a percentage of the link it crossed
	// (the run's recorded link, or one given): both directions for
	// bidirectional benchmarks, bus bandwidth for collectives. It
	// compares generations of hardware: EDR at 90% of its link against
	// HDR at what share of its own.
	Efficiency Metric = "link_efficiency"
	// TTrim is the time of a result with raw samples, robust to a few
	// slow repetitions: each rank's samples' mean with the slowest and
	// fastest TrimFrac of them left out, over the ranks as the
	// benchmark's own number takes them (their mean, or the slowest
	// rank's for IMB's single transfers and the ring). NaN without
	// samples. Compare and check take it by themselves where every run of
	// both sides has samples at a size.
	TTrim Metric = "t_trimmed_us"
	// PairTime and PairBW are a gomb fleet pair's reading as explain
	// takes it (pairValue: its round trips' or windows' FleetQuantile):
	// compare and check read a fleet's node keys so by themselves.
	PairTime Metric = "pair_p10_us"
	PairBW   Metric = "pair_p10_mbps"
)

// TrimFrac is the share of a rank's samples TTrim leaves out at each end.
const TrimFrac = 0.05

// ParseMetric reads a metric name; "" and "auto" are the primary metric.
func ParseMetric(s string) (Metric, error) {
	switch m := Metric(s); m {
	case "", "auto":
		return "", nil
	case TAvg, TMin, TMax, BW, Efficiency, TTrim:
		return m, nil
	}
	return "", fmt.Errorf("unknown metric %q (auto, t_avg_us, t_min_us, t_max_us, t_trimmed_us, mbytes_per_sec, link_efficiency)", s)
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
	case TTrim:
		v = trimmed(r)
	case PairTime, PairBW:
		if r.Pair != nil {
			v = pairValue(r)
		}
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

// trimmed is TTrim's value of a result.
func trimmed(r *result.Result) float64 {
	if len(r.SamplesUS) == 0 {
		return math.NaN()
	}
	var per []float64
	for i, s := range r.SamplesUS {
		switch {
		case len(s) > 0:
			per = append(per, stats.TrimmedMean(s, TrimFrac))
		case r.SamplesKept > 0 && i < len(r.RankP50US):
			// a bounded record (-samples auto at scale): the rank's
			// median stands for its trimmed mean, as robust to outliers
			per = append(per, r.RankP50US[i])
		default:
			return math.NaN()
		}
	}
	if Primary(r.Suite, r.Benchmark) == TMax {
		_, hi := stats.MinMax(per)
		return hi
	}
	return stats.Mean(per)
}

// HigherIsBetter: bandwidth and efficiency; times are better lower.
func (m Metric) HigherIsBetter() bool { return m == BW || m == Efficiency || m == PairBW }

// Unit is the metric's unit in table headers.
func (m Metric) Unit() string {
	switch m {
	case BW, PairBW:
		return "MB/s"
	case Efficiency:
		return "% of link"
	}
	return "µs"
}

// efficiency is a result's bandwidth as a percentage of the link: its
// MB/s (or size over time where the record has none), over one direction
// of the link (both for bidirectional benchmarks), or its bus bandwidth
// for collectives; NaN where the benchmark moves no comparable bytes.
func efficiencyOf(x *result.Result, link Link) float64 {
	if link.Gbps <= 0 || x.Bytes <= 0 {
		return math.NaN()
	}
	bw := x.MBps
	if !(bw > 0) {
		t := x.TAvgUS
		if Primary(x.Suite, x.Benchmark) == TMax {
			t = x.TMaxUS
		}
		if !(t > 0) {
			return math.NaN()
		}
		bw = float64(x.Bytes) / t
	}
	tr := traitsOf(x.Suite, x.Benchmark)
	switch {
	case tr.Directions > 0:
		return 100 * bw / (float64(tr.Directions) * link.MBps())
	case tr.Bus != nil && x.NP > 1:
		return 100 * bw * tr.Bus(float64(x.NP)) / link.MBps()
	}
	return math.NaN()
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
