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
}

// Profile is a series over sizes, what a latency or bandwidth plot draws.
type Profile struct {
	Series Series         `json:"series"`
	Points []ProfilePoint `json:"points"`
}

// Profiles summarises runs per series and size, series in order.
func Profiles(runs []*result.Bundle) []Profile {
	type acc struct{ tmin, tavg, tmax, bw []float64 }
	by := map[Key]*acc{}
	for _, r := range runs {
		per := map[Key]*acc{}
		for _, x := range r.Results {
			if x.Status != result.StatusOK || x.Cold {
				continue
			}
			k := Key{x.Suite, x.Name(), x.NP, x.Bytes}
			a := per[k]
			if a == nil {
				a = &acc{}
				per[k] = a
			}
			a.tmin, a.tavg, a.tmax = append(a.tmin, x.TMinUS), append(a.tavg, x.TAvgUS), append(a.tmax, x.TMaxUS)
			a.bw = append(a.bw, x.MBps)
		}
		for k, a := range per {
			b := by[k]
			if b == nil {
				b = &acc{}
				by[k] = b
			}
			b.tmin, b.tavg = append(b.tmin, positiveMedian(a.tmin)), append(b.tavg, positiveMedian(a.tavg))
			b.tmax, b.bw = append(b.tmax, positiveMedian(a.tmax)), append(b.bw, positiveMedian(a.bw))
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
			TMax: positiveMedian(a.tmax), MBps: positiveMedian(a.bw), Runs: len(a.tavg)}
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
