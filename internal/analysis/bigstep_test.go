package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// collective is a collective's series at np ranks: alpha µs at the
// smallest size growing with the bytes at bw MB/s, times k(size) from its
// step on.
func collective(bench string, np int, alpha, bw float64, k func(int64) float64) []*result.Result {
	var pts []pt
	for b := int64(4); b <= 1<<20; b *= 2 {
		t := (alpha + float64(b)/bw) * k(b)
		pts = append(pts, pt{bytes: b, tavg: t, tmin: 0.9 * t, tmax: 1.1 * t})
	}
	return mkRun("imb", bench, np, "", pts, nil).Results
}

// from is k for a step of f times from size b on.
func stepFrom(b int64, f float64) func(int64) float64 {
	return func(s int64) float64 {
		if s >= b {
			return f
		}
		return 1
	}
}

// TestBigCollectiveSteps: a collective's step of ×10 or more for twice
// the bytes is never the MPI's expected switch, however many benchmarks
// step there: at 4096 ranks Scatter ×23, Allgather ×53, Allgatherv ×10
// and Bcast ×12, with Reduce and Allreduce stepping ×2 at the same sizes
// (before, "the step at 16 KiB shows in 3 benchmark(s): ... expected"),
// each named as a WARNING with its size and factor and the libraries'
// algorithm selection; an Allreduce on GPU buffers ×6.9 that persists
// too. MPICH's healthy Gather of 2 ranks on shared memory, ×10.7 from 0.5
// to 5.3 µs at its rendezvous, is not one.
func TestBigCollectiveSteps(t *testing.T) {
	run := mkRun("imb", "PingPong", 2, result.InterNode, pingpong(1.5, 10000, one), nil)
	big := map[string]float64{"Scatter": 23, "Allgather": 53, "Allgatherv": 10.5, "Bcast": 12}
	at := map[string]int64{"Scatter": 16 << 10, "Allgather": 16 << 10, "Allgatherv": 32 << 10, "Bcast": 16 << 10}
	for b, f := range big {
		run.Results = append(run.Results, collective(b, 4096, 60, 2000, stepFrom(at[b], f))...)
	}
	for _, b := range []string{"Reduce", "Allreduce"} {
		run.Results = append(run.Results, collective(b, 4096, 80, 2000, stepFrom(16<<10, 2))...)
	}
	fs := Explain(run, ExplainOptions{})
	for b, f := range big {
		var got *Finding
		for i := range fs {
			if fs[i].Kind == KindCliff && fs[i].Series.Benchmark == b {
				got = &fs[i]
			}
		}
		if got == nil || got.Severity != Warning || !strings.Contains(got.Summary, "×") || !strings.Contains(got.Summary, Size(at[b])) ||
			!strings.Contains(got.Cause, "algorithm selection") || !strings.Contains(got.Cause, "coll tuned") {
			t.Errorf("%s ×%g at %s: %+v", b, f, Size(at[b]), got)
		}
	}
	for _, f := range fs {
		if !strings.Contains(f.Summary, "expected") {
			continue
		}
		for b := range big {
			if strings.Contains(strings.Join(f.Numbers, " "), b) {
				t.Errorf("%s's step called expected: %s %v", b, f.Summary, f.Numbers)
			}
		}
	}

	// GPU buffers: an Allreduce ×6.9 from 128 B on, kept by the larger sizes
	gpu := &result.Bundle{Run: &result.Run{Suite: "osu", RunID: "gpu", Source: &result.Source{Format: "osu",
		Meta: map[string]string{"title": "OSU MPI-CUDA Allreduce Latency Test v5.8"}}}}
	gpu.Results = collective("allreduce", 32, 120, 5000, stepFrom(128, 6.9))
	for _, x := range gpu.Results {
		x.Suite = "osu"
	}
	f := find(Explain(gpu, ExplainOptions{}), KindCliff)
	if f == nil || f.Severity != Warning || !strings.Contains(f.Summary, "×6.9 from 64 B to 128 B") || !strings.Contains(f.Cause, "GPU memory") {
		t.Errorf("GPU Allreduce ×6.9: %+v", f)
	}

	// MPICH's Gather of 2 ranks on shared memory (healthy-gomb-default-mpich-np2)
	for _, r := range load(t, "testdata/corpus/healthy-gomb-default-mpich-np2.jsonl.gz") {
		for _, f := range Explain(r, ExplainOptions{}) {
			if f.Kind == KindCliff && strings.Contains(f.Summary, "far more than any protocol switch") {
				t.Errorf("healthy MPICH: %s", f.Summary)
			}
		}
	}
}
