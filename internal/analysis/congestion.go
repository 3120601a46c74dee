package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// Congestion is a gomb congestion run read as GPCNeT reads its own: each
// canary's value alone and under the congestors, and the congestion
// impact factor (CIF) of each trial, with an interval over the trials.
type Congestion struct {
	Trials     int
	Canaries   []string
	Congestors []result.CongestorLoad // their load, averaged over the congested phases
	Tests      []CongestionTest
}

// CongestionTest is one canary over the trials.
type CongestionTest struct {
	Name      string
	Bandwidth bool   // MB/s a rank (higher is better); else usec
	Units     string // "usec" or "MB/s/rank"
	// Isolated and Congested are the medians over the trials of each
	// trial's GPCNeT "Avg" (the mean over ranks of each rank's mean) and
	// "99%" (the pooled 99th percentile of the latencies; of the
	// bandwidths, the 1st: the worst 1%).
	Isolated, Congested Reading
	// CIFAvg and CIFP99 are the impact factors: congested over isolated
	// (bandwidth: isolated over congested), 1 for no impact; the
	// geometric mean over the trials with its 95% interval (NaN bounds
	// from one trial), and each trial's.
	CIFAvg, CIFP99     Interval
	TrialAvg, TrialP99 []float64
}

// Reading is a phase's two values.
type Reading struct{ Avg, P99 float64 }

// Interval is a value with its bounds.
type Interval struct{ Value, Low, High float64 }

// CongestionOf reads the congestion rows of rows (nil: none). A trial
// counts for a test when it has both phases.
func CongestionOf(rows []*result.Result) *Congestion {
	type key struct {
		test  string
		trial int
	}
	phases := map[key][2]*result.Result{}
	trials := map[int]bool{}
	loaded := map[int]bool{} // the trials whose congestors' load is summed (every congested row of a trial has it)
	var c Congestion
	for _, r := range rows {
		if r.Congestion == nil || r.Suite != congestion.Suite || r.Status != result.StatusOK {
			continue
		}
		k := key{r.Benchmark, r.Congestion.Trial}
		p := phases[k]
		switch r.Congestion.Phase {
		case congestion.Isolated:
			p[0] = r
		case congestion.Congested:
			p[1] = r
			if !loaded[r.Congestion.Trial] {
				loaded[r.Congestion.Trial] = true
				c.Congestors = addLoads(c.Congestors, r.Congestion.Congestors)
			}
		default:
			continue
		}
		phases[k] = p
		trials[r.Congestion.Trial] = true
		c.Canaries = r.Congestion.Canaries
	}
	if len(phases) == 0 {
		return nil
	}
	for _, test := range congestion.Tests {
		t := CongestionTest{Name: test, Bandwidth: test == congestion.RRBandwidth, Units: "usec"}
		if t.Bandwidth {
			t.Units = "MB/s/rank"
		}
		var iso, con []Reading
		for trial := range len(trials) + 1 {
			p, ok := phases[key{test, trial}]
			if !ok || p[0] == nil || p[1] == nil {
				continue
			}
			a, b := readPhase(p[0], t.Bandwidth), readPhase(p[1], t.Bandwidth)
			iso, con = append(iso, a), append(con, b)
			t.TrialAvg = append(t.TrialAvg, impact(a.Avg, b.Avg, t.Bandwidth))
			t.TrialP99 = append(t.TrialP99, impact(a.P99, b.P99, t.Bandwidth))
		}
		if len(iso) == 0 {
			continue
		}
		t.Isolated, t.Congested = medianReading(iso), medianReading(con)
		t.CIFAvg, t.CIFP99 = geoInterval(t.TrialAvg), geoInterval(t.TrialP99)
		c.Trials = max(c.Trials, len(iso))
		c.Tests = append(c.Tests, t)
	}
	if len(c.Tests) == 0 {
		return nil
	}
	for i := range c.Congestors {
		n := float64(len(loaded))
		c.Congestors[i].MBps /= n
		c.Congestors[i].Calls /= n
		c.Congestors[i].Seconds /= n
	}
	return &c
}

// addLoads adds each congestor's load to the sums by pattern.
func addLoads(sum, l []result.CongestorLoad) []result.CongestorLoad {
	for _, x := range l {
		i := slices.IndexFunc(sum, func(s result.CongestorLoad) bool { return s.Pattern == x.Pattern })
		if i < 0 {
			sum = append(sum, result.CongestorLoad{Pattern: x.Pattern, Hosts: x.Hosts, Bytes: x.Bytes})
			i = len(sum) - 1
		}
		sum[i].Calls += x.Calls
		sum[i].MBps += x.MBps
		sum[i].Seconds += x.Seconds
	}
	return sum
}

// readPhase is GPCNeT's Avg and 99% of a row: latencies as they are;
// bandwidths each sample's (the iteration's bytes over its time).
func readPhase(r *result.Result, bandwidth bool) Reading {
	iterBytes := r.MBps * r.TAvgUS // the row's rate is the iteration's bytes over the mean time
	value := func(us float64) float64 {
		if bandwidth {
			return iterBytes / us
		}
		return us
	}
	var means, pooled []float64
	for _, s := range r.SamplesUS {
		if len(s) == 0 {
			continue
		}
		v := make([]float64, len(s))
		for i, x := range s {
			v[i] = value(x)
		}
		means = append(means, stats.Mean(v))
		pooled = append(pooled, v...)
	}
	q := 0.99
	if bandwidth {
		q = 0.01
	}
	return Reading{Avg: stats.Mean(means), P99: stats.Quantile(stats.Sorted(pooled), q)}
}

func impact(isolated, congested float64, bandwidth bool) float64 {
	if bandwidth {
		return isolated / congested
	}
	return congested / isolated
}

func medianReading(rs []Reading) Reading {
	var a, p []float64
	for _, r := range rs {
		a, p = append(a, r.Avg), append(p, r.P99)
	}
	return Reading{Avg: stats.Median(a), P99: stats.Median(p)}
}

func geoInterval(xs []float64) Interval {
	gm, lo, hi := stats.GeoMeanCI(xs, 0.95)
	return Interval{Value: gm, Low: lo, High: hi}
}

// Worst is the largest impact factor of the run, average or 99% (NaN
// without tests).
func (c *Congestion) Worst() float64 {
	w := math.NaN()
	for _, t := range c.Tests {
		for _, v := range []float64{t.CIFAvg.Value, t.CIFP99.Value} {
			if !math.IsNaN(v) && (math.IsNaN(w) || v > w) {
				w = v
			}
		}
	}
	return w
}

// The kinds of congestionFindings.
const (
	KindCongested  = "congestion-impact" // a canary slowed by the congestors
	KindCongestion = "congestion"        // the run's impact factors, said once
)

// congestionFindings is explain's rule for a gomb congestion run: a
// WARNING a canary the congestors slowed, and the impact factors.
func congestionFindings(in *explainInput) []Finding {
	c := CongestionOf(in.run.Results)
	if c == nil {
		return nil
	}
	var out, words, unsure []string
	var found []Finding
	for _, t := range c.Tests {
		words = append(words, fmt.Sprintf("%s %s (99%%: %s)", t.Name, cif(t.CIFAvg), cif(t.CIFP99)))
		worst, at, ok := slowedBy(t, in.th.CongestionCIF)
		if !ok {
			if i, at, ok := unsureBy(t, in.th.CongestionCIF); ok {
				unsure = append(unsure, fmt.Sprintf("%s %s %s", t.Name, cif(i), at))
			}
			continue
		}
		se := Series{Suite: congestion.Suite, Benchmark: t.Name}
		what := fmt.Sprintf("%.2g µs alone, %.2g µs congested", t.Isolated.Avg, t.Congested.Avg)
		if t.Bandwidth {
			what = fmt.Sprintf("%s alone, %s congested", mbps(t.Isolated.Avg), mbps(t.Congested.Avg))
		}
		found = append(found, Finding{Kind: KindCongested, Severity: Warning, Series: se,
			Summary: fmt.Sprintf("%s: %.2gx slower %s with the congestors running (%s, over %d trials; %s on average)",
				t.Name, worst.Value, at, cif(worst), c.Trials, what),
			Cause: "the canaries' traffic shares links or switch buffers with the congestors' (incast and all-to-all fill the queues in front of it), or the fabric's adaptive routing or congestion control does not keep the two apart; GPCNeT's published run on a 64-node Slingshot system kept every factor at 1.0x"})
	}
	for _, g := range c.Congestors {
		out = append(out, fmt.Sprintf("%s on %d nodes %s", g.Pattern, len(g.Hosts), mbps(g.MBps)))
	}
	sum := fmt.Sprintf("congestion impact over %d trials, canaries on %d nodes: %s; congestors %s", c.Trials,
		len(c.Canaries), strings.Join(words, ", "), strings.Join(out, ", "))
	switch {
	case len(found) == 0 && len(unsure) == 0:
		sum += "; no canary was slowed"
	case len(found) == 0:
		sum += "; no canary was slowed beyond doubt"
	}
	if len(unsure) > 0 {
		sum += fmt.Sprintf("; unsure: %s, an interval down to 1x or below over %d trials (the trials disagree: more -trials narrow it)",
			strings.Join(unsure, ", "), c.Trials)
	}
	return append(found, Finding{Kind: KindCongestion, Severity: Info, Series: Series{Suite: congestion.Suite, Benchmark: "canaries"},
		Summary: sum,
		Numbers: []string{fmt.Sprintf("a canary is slowed from %.3gx with its 95%% interval above 1", in.th.CongestionCIF)},
		Cause:   "GPCNeT's congestion impact factor: congested over isolated (bandwidth: isolated over congested), of the average and the 99th percentile, the geometric mean over the trials with its 95% interval"})
}

// slowedBy is the impact factor that names t slowed, and where: the
// average or the 99th percentile, whichever is at least th with its 95%
// interval above 1 (with one trial, no interval: the value alone), the
// larger when both are. A tail too noisy to be sure of does not hide a
// sure slowdown of the average, nor the other way round.
func slowedBy(t CongestionTest, th float64) (Interval, string, bool) {
	var worst Interval
	at, ok := "", false
	for _, f := range factors(t) {
		if f.i.Value >= th && !(f.i.Low <= 1) && (!ok || f.i.Value > worst.Value) {
			worst, at, ok = f.i, f.at, true
		}
	}
	return worst, at, ok
}

// unsureBy is t's largest impact factor that is at least th but whose
// 95% interval reaches 1, and where: a slowdown the trials neither show
// nor rule out, which "no canary was slowed" would hide.
func unsureBy(t CongestionTest, th float64) (Interval, string, bool) {
	var worst Interval
	at, ok := "", false
	for _, f := range factors(t) {
		if f.i.Value >= th && f.i.Low <= 1 && (!ok || f.i.Value > worst.Value) {
			worst, at, ok = f.i, f.at, true
		}
	}
	return worst, at, ok
}

// factors are t's two impact factors and where each is read.
func factors(t CongestionTest) []struct {
	i  Interval
	at string
} {
	return []struct {
		i  Interval
		at string
	}{{t.CIFAvg, "on average"}, {t.CIFP99, "at the 99th percentile"}}
}

func cif(i Interval) string {
	if math.IsNaN(i.Low) {
		return fmt.Sprintf("%.2fx", i.Value)
	}
	return fmt.Sprintf("%.2fx [%.2f, %.2f]", i.Value, i.Low, i.High)
}
