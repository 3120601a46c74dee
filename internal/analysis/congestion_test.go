package analysis

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// congestionRows makes a run's rows: each trial's isolated and congested
// phase of every canary on 4 ranks, 200 samples a rank; slow[test] is how
// much longer a congested iteration takes (1: not at all), jitter the
// samples' relative noise.
func congestionRows(trials int, slow map[string]float64, jitter float64, rng *rand.Rand) []*result.Result {
	base := map[string]float64{congestion.RRLatency: 2, congestion.RRBandwidth: 400, congestion.Allreduce: 5}
	var rows []*result.Result
	for trial := range trials {
		for _, phase := range []string{congestion.Isolated, congestion.Congested} {
			for _, test := range congestion.Tests {
				f := 1.0
				if phase == congestion.Congested {
					f = slow[test]
				}
				r := &result.Result{Suite: congestion.Suite, Benchmark: test, NP: 4, Status: result.StatusOK,
					Congestion: &result.Congestion{Trial: trial, Phase: phase, Canaries: []string{"c1", "c2", "c3", "c4"}}}
				for k := range 4 {
					s := make([]float64, 200)
					for i := range s {
						s[i] = base[test] * f * (1 + jitter*rng.Float64())
					}
					r.SamplesUS = append(r.SamplesUS, s)
					r.RankMeanUS = append(r.RankMeanUS, stats.Mean(s))
					r.Ranks = append(r.Ranks, k)
				}
				r.TAvgUS = stats.Mean(r.RankMeanUS)
				if test == congestion.RRBandwidth {
					r.MBps = 2 * 8 * 131072 / r.TAvgUS
				}
				if phase == congestion.Congested {
					r.Congestion.Congestors = []result.CongestorLoad{{Pattern: "incast", Hosts: []string{"c5", "c6"}, MBps: 900}}
				}
				rows = append(rows, r)
			}
		}
	}
	return rows
}

// TestCongestionOf: the impact factors are congested over isolated for
// the latencies and isolated over congested for the bandwidth, of the
// average and the tail, with an interval over several trials and none
// from one.
func TestCongestionOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	slow := map[string]float64{congestion.RRLatency: 3, congestion.RRBandwidth: 2, congestion.Allreduce: 1}
	c := CongestionOf(congestionRows(3, slow, 0.01, rng))
	if c == nil || c.Trials != 3 || len(c.Tests) != 3 || len(c.Canaries) != 4 {
		t.Fatalf("%+v", c)
	}
	for _, tt := range c.Tests {
		want := slow[tt.Name]
		for what, i := range map[string]Interval{"avg": tt.CIFAvg, "99%": tt.CIFP99} {
			if math.Abs(i.Value-want) > 0.05*want || !(i.Low <= i.Value && i.Value <= i.High) || math.IsNaN(i.Low) {
				t.Errorf("%s CIF %s %+v, want %g with its interval", tt.Name, what, i, want)
			}
		}
		if tt.Bandwidth != (tt.Name == congestion.RRBandwidth) || len(tt.TrialAvg) != 3 {
			t.Errorf("%s: bandwidth %v, trials %v", tt.Name, tt.Bandwidth, tt.TrialAvg)
		}
	}
	bw := c.Tests[1]
	// 2 MiB an iteration of 400 usec: 5243 MB/s alone, half congested;
	// the tail of a bandwidth is its worst 1%
	if math.Abs(bw.Isolated.Avg-5243) > 60 || math.Abs(bw.Congested.Avg-2621) > 30 || bw.Isolated.P99 > bw.Isolated.Avg {
		t.Errorf("bandwidth readings %+v %+v", bw.Isolated, bw.Congested)
	}
	if len(c.Congestors) != 1 || c.Congestors[0].MBps != 900 {
		t.Errorf("congestors %+v: want incast's 900 MB/s, the mean over the trials", c.Congestors)
	}
	one := CongestionOf(congestionRows(1, slow, 0.01, rng))
	if one == nil || !math.IsNaN(one.Tests[0].CIFAvg.Low) {
		t.Errorf("one trial: %+v, want no interval", one.Tests[0].CIFAvg)
	}
	// a trial without its congested phase does not count
	rows := congestionRows(2, slow, 0.01, rng)
	c = CongestionOf(rows[:len(rows)-3])
	if c == nil || c.Trials != 1 {
		t.Errorf("a trial cut short counted: %+v", c)
	}
	if CongestionOf([]*result.Result{{Suite: "imb", Benchmark: "PingPong", Status: result.StatusOK}}) != nil {
		t.Error("a congestion reading of a run without canaries")
	}
}

// TestCongestionExplain: explain warns of each canary the congestors
// slowed beyond its interval's doubt, and says the factors once; an
// unslowed run gets the factors alone.
func TestCongestionExplain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(slow map[string]float64) []Finding {
		return Explain(&result.Bundle{Run: &result.Run{Suite: congestion.Suite}, Results: congestionRows(3, slow, 0.05, rng)}, ExplainOptions{})
	}
	fs := run(map[string]float64{congestion.RRLatency: 4, congestion.RRBandwidth: 1, congestion.Allreduce: 1})
	var kinds []string
	for _, f := range fs {
		kinds = append(kinds, f.Kind+": "+f.Series.Benchmark)
	}
	if strings.Join(kinds, "; ") != "congestion-impact: rr_latency; congestion: canaries" ||
		!strings.Contains(fs[0].Summary, "4x slower") || !strings.Contains(fs[1].Summary, "incast on 2 nodes 900 MB/s") {
		t.Errorf("findings %q:\n%+v", kinds, fs)
	}
	fs = run(map[string]float64{congestion.RRLatency: 1, congestion.RRBandwidth: 1, congestion.Allreduce: 1})
	if len(fs) != 1 || fs[0].Kind != KindCongestion || !strings.Contains(fs[0].Summary, "no canary was slowed") {
		t.Errorf("an unslowed run: %+v", fs)
	}
}

// TestCongestionUnsure: a large factor whose trials disagree (y5 of a
// streak on the testbed: rr_latency 8.16x [0.16, 421.16] over 3 trials)
// is neither a warning nor "no canary was slowed": explain says which
// canary is unsure, by how much, and that more trials would tell.
func TestCongestionUnsure(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	run := func(lat []float64, bw float64) []Finding {
		var rows []*result.Result
		for trial, f := range lat {
			for _, r := range congestionRows(1, map[string]float64{congestion.RRLatency: f, congestion.RRBandwidth: bw, congestion.Allreduce: 1}, 0.01, rng) {
				r.Congestion.Trial = trial
				rows = append(rows, r)
			}
		}
		return Explain(&result.Bundle{Run: &result.Run{Suite: congestion.Suite}, Results: rows}, ExplainOptions{})
	}
	for _, c := range []struct {
		name        string
		bw          float64
		kinds, want string
		not         string
	}{
		{"unsure alone", 1, "congestion: canaries", "; no canary was slowed beyond doubt; unsure: rr_latency 2.06x [0.11, 38.1", "congestion-impact"},
		{"unsure beside a sure one", 2, "congestion-impact: rr_bw; congestion: canaries", "; unsure: rr_latency 2.06x [0.11, 38.1", "no canary was slowed"},
	} {
		fs := run([]float64{1, 1.1, 8}, c.bw)
		var kinds []string
		for _, f := range fs {
			kinds = append(kinds, f.Kind+": "+f.Series.Benchmark)
		}
		sum := fs[len(fs)-1].Summary
		if strings.Join(kinds, "; ") != c.kinds || !strings.Contains(sum, c.want) || strings.Contains(sum, c.not) ||
			!strings.Contains(sum, ", an interval down to 1x or below over 3 trials (the trials disagree: more -trials narrow it)") {
			t.Errorf("%s: %q\n%s", c.name, kinds, sum)
		}
	}
}

// TestSlowedBy: a canary is named slowed by whichever factor is sure of
// it; a larger factor with an interval down to 1 or below does not hide
// it (the case a shared-uplink run on the testbed met: the average 1.82x
// [1.72, 1.93], the tail 1.86x [0.70, 4.93]).
func TestSlowedBy(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name     string
		avg, p99 Interval
		want     float64
		at       string
		unsure   float64 // unsureBy's factor (0: none) and where
		unsureAt string
	}{
		{"average sure, tail larger but unsure", Interval{1.82, 1.72, 1.93}, Interval{1.86, 0.70, 4.93}, 1.82, "on average", 1.86, "at the 99th percentile"},
		{"tail sure, average larger but unsure", Interval{2.5, 0.9, 6}, Interval{1.5, 1.3, 1.7}, 1.5, "at the 99th percentile", 2.5, "on average"},
		{"both sure: the larger", Interval{1.4, 1.3, 1.5}, Interval{3, 2, 4}, 3, "at the 99th percentile", 0, ""},
		{"both sure, average larger", Interval{3, 2, 4}, Interval{1.4, 1.3, 1.5}, 3, "on average", 0, ""},
		{"sure but below the threshold", Interval{1.1, 1.05, 1.15}, Interval{1.15, 1.1, 1.2}, 0, "", 0, ""},
		{"at the threshold", Interval{1.2, 1.01, 1.4}, Interval{1, 0.9, 1.1}, 1.2, "on average", 0, ""},
		{"neither sure", Interval{2, 0.8, 5}, Interval{3, 1, 9}, 0, "", 3, "at the 99th percentile"},
		{"unsure below the threshold", Interval{1.1, 0.5, 2}, Interval{1.15, 0.8, 1.6}, 0, "", 0, ""},
		{"one trial: the value alone", Interval{1.5, nan, nan}, Interval{1.1, nan, nan}, 1.5, "on average", 0, ""},
		{"not measured", Interval{nan, nan, nan}, Interval{nan, nan, nan}, 0, "", 0, ""},
	} {
		ct := CongestionTest{CIFAvg: c.avg, CIFP99: c.p99}
		i, at, ok := slowedBy(ct, 1.2)
		if ok != (c.at != "") || at != c.at || (ok && i.Value != c.want) {
			t.Errorf("%s: %+v %q %v, want %g %q", c.name, i, at, ok, c.want, c.at)
		}
		if u, uat, uok := unsureBy(ct, 1.2); uok != (c.unsure != 0) || (uok && (u.Value != c.unsure || uat != c.unsureAt)) {
			t.Errorf("%s: unsure %+v %q %v, want %g %q", c.name, u, uat, uok, c.unsure, c.unsureAt)
		}
	}
}
