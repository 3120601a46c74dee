package analysis

import (
	"math"
	"sort"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// ProfilePoint is one size of a profile: the medians over the runs of
// t_min, t_avg, t_max and bandwidth (each run's -multi groups and ring
// samples folded by their median first). NaN where no run has a value;
// where the records have no bandwidth (IMB's collectives), MBps is size
// over t_avg.
type ProfilePoint struct {
	Bytes int64   `json:"bytes"`
	TMin  float64 `json:"t_min"`
	TAvg  float64 `json:"t_avg"`
	TMax  float64 `json:"t_max"`
	MBps  float64 `json:"mbps"`
	Runs  int     `json:"runs"`
	// P10 and P90 are the 10th and 90th percentiles of the raw samples
	// (every repetition of every rank that kept them), the median over
	// the runs; NaN where no run kept samples.
	P10 Float `json:"p10"`
	P90 Float `json:"p90"`
}

// Profile is a series over sizes, what a latency or bandwidth plot draws.
type Profile struct {
	Series Series         `json:"series"`
	Points []ProfilePoint `json:"points"`
}

// Profiles summarises runs per series and size, series in order.
func Profiles(runs []*result.Bundle) []Profile {
	type acc struct{ tmin, tavg, tmax, bw, p10, p90 []float64 }
	by := map[Key]*acc{}
	for _, r := range runs {
		per := map[Key]*acc{}
		for _, x := range r.Results {
			if x.Status != result.StatusOK || x.Cold || x.Pair != nil || x.Congestion != nil {
				continue // (a fleet sweep's pairs: its heat maps, FleetOf)
			}
			k := Key{x.Suite, x.Name(), x.NP, x.Bytes}
			a := per[k]
			if a == nil {
				a = &acc{}
				per[k] = a
			}
			a.tmin, a.tavg, a.tmax = append(a.tmin, x.TMinUS), append(a.tavg, x.TAvgUS), append(a.tmax, x.TMaxUS)
			a.bw = append(a.bw, x.MBps)
			var all []float64
			for _, s := range x.SamplesUS {
				all = append(all, s...)
			}
			if len(all) > 0 {
				sorted := stats.Sorted(all)
				a.p10, a.p90 = append(a.p10, stats.Quantile(sorted, 0.1)), append(a.p90, stats.Quantile(sorted, 0.9))
			}
		}
		for k, a := range per {
			b := by[k]
			if b == nil {
				b = &acc{}
				by[k] = b
			}
			b.tmin, b.tavg = append(b.tmin, positiveMedian(a.tmin)), append(b.tavg, positiveMedian(a.tavg))
			b.tmax, b.bw = append(b.tmax, positiveMedian(a.tmax)), append(b.bw, positiveMedian(a.bw))
			if len(a.p10) > 0 {
				b.p10, b.p90 = append(b.p10, positiveMedian(a.p10)), append(b.p90, positiveMedian(a.p90))
			}
		}
	}
	var out []Profile
	at := map[Series]int{}
	for _, k := range Keys(by) {
		s := k.Series()
		i, ok := at[s]
		if !ok {
			i = len(out)
			at[s] = i
			out = append(out, Profile{Series: s})
		}
		a := by[k]
		pp := ProfilePoint{Bytes: k.Bytes, TMin: positiveMedian(a.tmin), TAvg: positiveMedian(a.tavg),
			TMax: positiveMedian(a.tmax), MBps: positiveMedian(a.bw), Runs: len(a.tavg),
			P10: Float(positiveMedian(a.p10)), P90: Float(positiveMedian(a.p90))}
		if !(pp.MBps > 0) && pp.TAvg > 0 && k.Bytes > 0 {
			pp.MBps = float64(k.Bytes) / pp.TAvg
		}
		out[i].Points = append(out[i].Points, pp)
	}
	for i := range out {
		sort.Slice(out[i].Points, func(a, b int) bool { return out[i].Points[a].Bytes < out[i].Points[b].Bytes })
	}
	return out
}

// positiveMedian is the median of the positive values, NaN if none.
func positiveMedian(xs []float64) float64 {
	var v []float64
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	return stats.Median(v)
}
