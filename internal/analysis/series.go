package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// row is one size of a series, the -multi groups folded (median).
type row struct {
	bytes            int64
	tmin, tmax, tavg float64
	bw               float64
	primary          float64 // the primary metric
	res              []*result.Result
}

// series is one benchmark at one process count, rows by size.
type series struct {
	Series
	metric Metric
	rows   []row
	fit    *lineFit   // fitLines' result, computed once
	inv    *inversion // inverted's, computed once
}

func collect(r *result.Bundle) []*series {
	by := map[Series]map[int64][]*result.Result{}
	for _, x := range r.Results {
		if x.Status != result.StatusOK || x.Cold || x.Pair != nil || x.Congestion != nil {
			continue // (a fleet sweep's pairs are fleetFindings', a congestion run's canaries congestionFindings')
		}
		if x.Bytes > 0 && x.Bytes < 4*int64(x.NP) && traitsOf(x.Suite, x.Benchmark).Split {
			continue // some ranks get no element: no transfer to read
		}
		s := Series{x.Suite, x.Name(), x.NP} // IMB-EXT's two modes are two series
		if by[s] == nil {
			by[s] = map[int64][]*result.Result{}
		}
		by[s][x.Bytes] = append(by[s][x.Bytes], x)
	}
	var out []*series
	for s, sizes := range by {
		se := &series{Series: s, metric: Primary(s.Suite, s.Benchmark)}
		for b, xs := range sizes {
			med := func(f func(*result.Result) float64) float64 {
				v := make([]float64, len(xs))
				for i, x := range xs {
					v[i] = f(x)
				}
				return stats.Median(v)
			}
			rw := row{bytes: b, res: xs,
				tmin: med(func(x *result.Result) float64 { return x.TMinUS }),
				tmax: med(func(x *result.Result) float64 { return x.TMaxUS }),
				tavg: med(func(x *result.Result) float64 { return x.TAvgUS }),
				bw:   med(func(x *result.Result) float64 { return x.MBps })}
			rw.primary = med(func(x *result.Result) float64 { return se.metric.Value(x) })
			se.rows = append(se.rows, rw)
		}
		sort.Slice(se.rows, func(i, j int) bool { return se.rows[i].bytes < se.rows[j].bytes })
		out = append(out, se)
	}
	sort.Slice(out, func(i, j int) bool {
		return Key{out[i].Suite, out[i].Benchmark, out[i].NP, 0}.Less(Key{out[j].Suite, out[j].Benchmark, out[j].NP, 0})
	})
	return out
}

// sizes writes a list of sizes compactly: "8 KiB", "8 KiB-64 KiB (4 sizes)".
func sizes(bs []int64) string {
	switch len(bs) {
	case 0:
		return ""
	case 1:
		return Size(bs[0])
	case 2:
		return Size(bs[0]) + " and " + Size(bs[1])
	}
	return fmt.Sprintf("%s to %s (%d sizes)", Size(bs[0]), Size(bs[len(bs)-1]), len(bs))
}

func us(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f µs", v)
	case v >= 10:
		return fmt.Sprintf("%.1f µs", v)
	}
	return fmt.Sprintf("%.2f µs", v)
}

func mbps(v float64) string { return fmt.Sprintf("%.0f MB/s", v) }

func name(s Series) string {
	if s.NP > 0 {
		return fmt.Sprintf("%s (np %d)", s.Benchmark, s.NP)
	}
	return s.Benchmark
}

// peakBW is the series' highest bandwidth in bytes per µs (= MB/s),
// from its sizes and times.
func peakBW(s *series) float64 {
	best := 0.0
	for _, r := range s.rows {
		if r.bytes > 0 && r.tavg > 0 {
			best = math.Max(best, float64(r.bytes)/r.primaryTime())
		}
	}
	return best
}

func (r row) primaryTime() float64 {
	if r.tmax > 0 && r.tavg > 0 {
		return r.tavg
	}
	return math.Max(r.tavg, r.tmax)
}
