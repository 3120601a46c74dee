package text

import (
	"bytes"
	"flag"
	"math"
	"path/filepath"
	"testing"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name string, write func(*bytes.Buffer) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", name), b.Bytes(), *update)
}

func TestComparison(t *testing.T) {
	nan := analysis.Float(math.NaN())
	c := &analysis.Comparison{
		A:     analysis.Side{Name: "base-*.jsonl", Runs: 5, Locality: "intra-node", Labels: []string{"hpc4", "base", "Open MPI v4.1.4"}},
		B:     analysis.Side{Name: "xpmem-*.jsonl", Runs: 1, Locality: "intra-node"},
		Alpha: 0.05,
		Noise: analysis.DefaultNoise,
		Rows: []analysis.Row{
			{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 8}, Metric: analysis.TMax, A: []analysis.Float{1, 1, 1, 1, 1}, B: []analysis.Float{1.1},
				CentreA: 1.01, CentreB: 1.1, Speed: 0.918, Lo: nan, Hi: nan, P: 0.33},
			{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 1 << 20}, Metric: analysis.TMax, A: []analysis.Float{1, 1, 1, 1, 1}, B: []analysis.Float{1},
				CentreA: 250.4, CentreB: 110.2, Speed: 2.27, Lo: 2.1, Hi: 2.4, CI: true, P: 0.012, Q: 0.024, Significant: true},
			{Key: analysis.Key{Suite: "osu", Benchmark: "bw", NP: 2, Bytes: 4096}, Metric: analysis.BW, A: []analysis.Float{1}, B: []analysis.Float{1},
				CentreA: 4000, CentreB: 3000, Speed: 0.75, P: 1},
			{Key: analysis.Key{Suite: "osu", Benchmark: "bw", NP: 2, Bytes: 1 << 20}, Metric: analysis.BW, A: []analysis.Float{1}, B: []analysis.Float{1},
				CentreA: 12000, CentreB: 600, Speed: 0.05, P: 1, BeyondNoise: true},
		},
		Series: []analysis.SeriesSummary{
			{Series: analysis.Series{Suite: "imb", Benchmark: "PingPong", NP: 2}, GeoMean: 1.44, Sizes: 2,
				Bands: []analysis.BandSpeed{{Speed: 0.918, Sizes: 1}, {Speed: nan}, {Speed: nan}, {Speed: 2.27, Sizes: 1, Significant: 1}}},
			{Series: analysis.Series{Suite: "osu", Benchmark: "bw", NP: 2}, GeoMean: 0.75, Sizes: 1,
				Bands: []analysis.BandSpeed{{Speed: nan}, {Speed: 0.75, Sizes: 1}, {Speed: nan}, {Speed: 0.05, Sizes: 1, BeyondNoise: 1}}},
		},
		Verdict: analysis.Verdict{Lines: []analysis.VerdictLine{
			{Band: "512 KiB-4 MiB", Family: "point-to-point", Faster: true, Lo: 2.27, Hi: 2.27, Benchmarks: []string{"PingPong"}, Sizes: 1},
			{Band: "512 KiB-4 MiB", Family: "point-to-point", Lo: 0.05, Hi: 0.05, Benchmarks: []string{"bw"}, Sizes: 1}},
			Conclusion: "mixed: faster and slower in the same size range; read the lines above per benchmark"},
		Warnings: []string{"too few runs to call any difference significant"},
	}
	golden(t, "comparison.golden", func(b *bytes.Buffer) error { return Comparison(b, c) })
}

func TestCheck(t *testing.T) {
	tol := analysis.Tolerance{Band: -1, Rel: 0.05}
	r := &analysis.CheckResult{Regressions: 1, Missing: 1, Warnings: []string{"the baseline has 1 run(s)"}, Rows: []analysis.CheckRow{
		{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 8}, Metric: analysis.TMax, Base: 1.2, BaseRuns: 10, Spread: 0.02,
			Value: 1.25, Change: 0.0417, Allowed: 0.05, Tolerance: tol, Verdict: analysis.VerdictOK},
		{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 16384}, Metric: analysis.TMax, Base: 8.1, BaseRuns: 10, Spread: 0.1,
			Value: 10.3, Change: 0.272, Allowed: 0.05, Tolerance: tol, Verdict: analysis.VerdictRegression},
		{Key: analysis.Key{Suite: "osu", Benchmark: "bw", NP: 2, Bytes: 1 << 20}, Metric: analysis.BW, Base: 9000, BaseRuns: 10, Spread: 120,
			Value: 9900, Change: -0.1, Allowed: 0.05, Tolerance: analysis.Tolerance{Benchmark: "bw", Band: 3, Rel: 0.03}, Verdict: analysis.VerdictBetter},
		{Key: analysis.Key{Suite: "osu", Benchmark: "bw", NP: 2, Bytes: 4 << 20}, Metric: analysis.BW, Base: 9100, BaseRuns: 10, Value: analysis.Float(math.NaN()),
			Allowed: 0.05, Tolerance: tol, Verdict: analysis.VerdictMissing},
	}}
	golden(t, "check.golden", func(b *bytes.Buffer) error { return Check(b, r) })
	r.Regressions, r.Rows[1].Verdict = 0, analysis.VerdictOK
	golden(t, "check-pass.golden", func(b *bytes.Buffer) error { return Check(b, r) })
}

func TestFindings(t *testing.T) {
	fs := []analysis.Finding{
		{Kind: analysis.KindCliff, Severity: analysis.Warning, Series: analysis.Series{Suite: "osu", Benchmark: "latency", NP: 2}, Sizes: []int64{16384},
			Summary: "latency (np 2): time jumps at 8 KiB → 16 KiB and does not recover",
			Numbers: []string{"8 KiB → 16 KiB: 6.38 µs → 22.0 µs (×3.45 for ×2 the bytes; at the best bandwidth seen, 1712 MB/s, 11.2 µs)"},
			Cause:   "the protocol switch at 16 KiB (see that finding); otherwise a protocol or algorithm switch (eager to rendezvous adds a handshake; a collective changing algorithm) or a misconfiguration that sends these sizes down a slower path"},
		{Kind: analysis.KindFabric, Severity: analysis.Info, Summary: "osu_latency latency of 1.74 µs points to RDMA class",
			Numbers: []string{"1.74 µs at 1 B"}, Cause: "1-4 µs is what kernel-bypass RDMA fabrics give between nodes"},
	}
	golden(t, "findings.golden", func(b *bytes.Buffer) error { return Findings(b, "gomb explain: a run", fs) })
	golden(t, "findings-none.golden", func(b *bytes.Buffer) error { return Findings(b, "gomb explain: a quiet run", nil) })
}
