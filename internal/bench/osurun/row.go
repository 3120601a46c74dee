package osurun

import (
	"fmt"
	"math"
	"slices"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// From what rank 0 gathered for a size to the result record.

// scale is what turns a timing rank's seconds per iteration into the
// reported microseconds.
func scale(t *osu.Table) float64 {
	switch {
	case t.Spec.Kind == osu.Latency || t.Spec.Kind == osu.OneWay:
		return 0.5e6 // half the round trip
	case t.Spec.Kind == osu.RMALatency && (t.Sync == kernel.SyncPSCW || t.Sync == kernel.SyncFence):
		return 0.5e6 // a round trip of operations
	}
	return 1e6
}

func (e *Engine) row(t *osu.Table, size, payload int64, iters int, vals []float64, samples [][]float64, stamps [3][][]float64) (*result.Result, error) {
	s, o := t.Spec, t.Opt
	sc := scale(t)
	r := &result.Result{Suite: osu.Suite, Benchmark: s.Name, NP: t.NP, Groups: 1, Group: -1, Bytes: size, RunID: e.RunID}
	world := make([]int, t.NP)
	for w := range world {
		world[w] = w
	}
	per := float64(iters)
	if s.Threads {
		// OSU: all senders' round trips over iterations/senders
		per /= float64(o.SendThreads)
	}
	timed := bench.Assembly{Stride: nvals, Hosts: e.Hosts, Samples: samples, Scale: sc, Check: o.Validate, Parts: world[:parts(s, t.NP)],
		MeanUS: func(v []float64) float64 { return v[bench.SlotTime] / per * sc }}.Assemble(r, vals, world)
	if timed == 0 {
		return nil, fmt.Errorf("no rank timed %s", s.Name)
	}
	if s.IsFan() {
		// every stream joins two nodes, however many ranks share each
		r.Locality, r.HostCount = result.InterNode, t.Fan.Nodes
	}
	if p := pooled(r.SamplesUS); len(p) > 0 {
		r.P50US, r.P90US, r.P99US = stats.Quantile(p, 0.5), stats.Quantile(p, 0.9), stats.Quantile(p, 0.99)
	}
	values := perIteration(t, payload, samples, r.Ranks, sc)
	r.Tail = tails(t, values)
	if t.Opt.DDT != nil {
		r.TransmitBytes = payload
	}
	msgRate := 0.0
	nb := result.NBC{MinCommUS: math.Inf(1)}
	for _, w := range r.Ranks {
		v := vals[w*nvals : (w+1)*nvals]
		if el := v[bench.SlotTime]; el > 0 {
			msgRate += float64(o.Window) * float64(iters) / el
		}
		if s.Kind == osu.NonBlocking {
			n := float64(iters)
			nb.ComputeUS += v[vCompute] / n * 1e6
			nb.InitUS += v[vInit] / n * 1e6
			nb.TestUS += v[vTest] / n * 1e6
			nb.WaitUS += v[vWait] / n * 1e6
			nb.PureUS += v[vPure] * 1e6
			nb.MinCommUS = math.Min(nb.MinCommUS, v[vPure]*1e6)
			nb.MaxCommUS = math.Max(nb.MaxCommUS, v[vPure]*1e6)
		}
	}
	bytes := windowBytes(t, payload) * float64(iters)
	switch s.Kind {
	case osu.Bandwidth, osu.RMABandwidth:
		el := vals[r.Ranks[0]*nvals+bench.SlotTime]
		if s.IsFan() {
			// OSU 7.4: every stream's window over the timing ranks' mean
			// loop time (the children's in fan-in, the parents' in fan-out)
			el = r.TAvgUS / sc * float64(iters)
		}
		r.MBps = s.BWFactor * bytes / el / 1e6
	case osu.MsgRate:
		r.MsgPerSec = msgRate
		r.MBps = msgRate * float64(payload) / 1e6
	case osu.NonBlocking:
		k := float64(len(r.Ranks))
		nb.OverallUS = r.TAvgUS
		nb.ComputeUS /= k
		nb.InitUS /= k
		nb.TestUS /= k
		nb.WaitUS /= k
		nb.PureUS /= k
		if nb.PureUS > 0 {
			nb.OverlapPct = math.Max(0, 100-(nb.OverallUS-nb.ComputeUS)/nb.PureUS*100)
		}
		r.NBC = &nb
	case osu.OneWay:
		ow, err := oneWay(stamps)
		if err != nil {
			return nil, err
		}
		r.OneWay = ow
	}
	if n := t.Nbr; n != nil {
		r.Topology = &result.Topology{Kind: n.Kind, Dims: n.Dims, Radius: n.Radius, File: n.File, Edges: n.Edges(),
			CreateUS: t.NbrCreateUS}
	}
	if o.Device != "" {
		r.Buffers = string(o.Place[0]) + " " + string(o.Place[1])
		r.Staged = e.staged
	}
	if len(o.Graph) > 0 && len(values) > 0 { // -G: this size's graph, with the value printed for it
		g := osu.Graph{Test: s.Name, Bytes: size, Avg: r.TAvgUS, Unit: "Lat(us)", Values: values}
		if s.Traits().Lead == bench.LeadBandwidth {
			g.Avg, g.Unit = r.MBps, "BW(MB/s)"
		}
		e.graphs = append(e.graphs, g)
	}
	return r, nil
}

// windowBytes is what one timed iteration of a bandwidth test moves (of
// messages of payload bytes: the size, or with -D the bytes its type
// carries, as OSU counts them): a
// window of messages, on every stream of the fan tests.
func windowBytes(t *osu.Table, payload int64) float64 {
	b := float64(payload) * float64(t.Opt.Window)
	if t.Spec.IsFan() {
		b *= float64(t.Fan.Streams())
	}
	return b
}

// parts is how many ranks, from rank 0, move a test's data: the pair 0 and
// 1 of the point-to-point and one-sided tests (rank 0 alone times most of
// them), all pairs of the multi-pair ones, every rank of the collectives
// and the fan tests.
func parts(s *osu.Spec, np int) int {
	switch {
	case s.Job.Pairs:
		return np / 2 * 2
	case s.IsFan(), s.Kind == osu.Collective, s.Kind == osu.NonBlocking:
		return np
	}
	return min(2, np)
}

// pooled is the samples of all timing ranks, sorted.
func pooled(samples [][]float64) []float64 {
	var all []float64
	for _, s := range samples {
		all = append(all, s...)
	}
	return stats.Sorted(all)
}

// perIteration is one value per timed iteration, as OSU takes them for
// its tail columns (-z) and its graphs (-G): the first timing rank's time
// for the point-to-point and one-sided latencies, its bandwidth in MB/s
// for the bandwidth tests (all pairs' summed for osu_mbw_mr), the mean
// over the ranks for the collectives; in iteration order.
func perIteration(t *osu.Table, payload int64, samples [][]float64, timing []int, sc float64) []float64 {
	if len(timing) == 0 {
		return nil
	}
	s := t.Spec
	first := samples[timing[0]]
	n := len(first)
	for _, w := range timing {
		n = min(n, len(samples[w]))
	}
	bytes := windowBytes(t, payload)
	series := make([]float64, n)
	for i := range series {
		switch s.Kind {
		case osu.Collective, osu.NonBlocking:
			for _, w := range timing {
				series[i] += samples[w][i] * sc / float64(len(timing))
			}
		case osu.Bandwidth, osu.RMABandwidth:
			if first[i] > 0 {
				series[i] = s.BWFactor * bytes / first[i] / 1e6
			}
		case osu.MsgRate:
			for _, w := range timing {
				if samples[w][i] > 0 {
					series[i] += bytes / samples[w][i] / 1e6
				}
			}
		default:
			series[i] = first[i] * sc
		}
	}
	return series
}

// tails are OSU 7.4's tail columns (-z): the listed percentiles of the
// per-iteration values, sorted ascending and indexed n*p/100 - 1 (integer
// division, at least the first).
func tails(t *osu.Table, values []float64) []result.Tail {
	list := t.Opt.TailList()
	n := len(values)
	if len(list) == 0 || n == 0 {
		return nil
	}
	series := slices.Sorted(slices.Values(values))
	out := make([]result.Tail, len(list))
	for k, p := range list {
		idx := min(max(n*p/100-1, 0), n-1)
		out[k] = result.Tail{P: p, Value: math.Round(series[idx]*1e4) / 1e4}
	}
	return out
}
