package text

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"

	"github.com/gomb-hpc/gomb/internal/analysis"
)

// ComparisonCSV writes the comparison's rows as CSV, one row a benchmark,
// process count and size, as benchstat's -format csv does: for
// spreadsheets and scripts. Numbers are written in full; an empty cell is
// a value that does not exist (no interval with too few runs).
func ComparisonCSV(w io.Writer, c *analysis.Comparison) error {
	cw := csv.NewWriter(w)
	head := []string{"suite", "benchmark", "np", "bytes", "band", "metric", "unit", "a", "b", "runs_a", "runs_b",
		"speed", "speed_lo", "speed_hi", "p", "q", "significant", "beyond_noise"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range c.Rows {
		lo, hi := math.NaN(), math.NaN()
		if r.CI {
			lo, hi = float64(r.Lo), float64(r.Hi)
		}
		rec := []string{r.Key.Suite, r.Key.Benchmark, strconv.Itoa(r.Key.NP), strconv.FormatInt(r.Key.Bytes, 10),
			analysis.Bands[analysis.BandOf(r.Key.Bytes)].Label, string(r.Metric), r.Metric.Unit(),
			csvNum(float64(r.CentreA)), csvNum(float64(r.CentreB)), strconv.Itoa(len(r.A)), strconv.Itoa(len(r.B)),
			csvNum(float64(r.Speed)), csvNum(lo), csvNum(hi), csvNum(float64(r.P)), csvNum(float64(r.Q)),
			strconv.FormatBool(r.Significant), strconv.FormatBool(r.BeyondNoise)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
