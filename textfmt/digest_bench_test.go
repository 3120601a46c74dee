package textfmt

import (
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// BenchmarkDigest: the cost of a run's digest per result, which every
// import pays (a log's run of 48 PingPong sizes).
func BenchmarkDigest(b *testing.B) {
	r := &result.Bundle{Run: &result.Run{Source: &result.Source{Format: "imb", Meta: map[string]string{"title": "Intel(R) MPI Benchmarks 2021.11, MPI-1 part", "Date": "Mon Nov 30", "MPI Version": "3.1"}}}}
	for i := range 48 {
		r.Results = append(r.Results, &result.Result{Benchmark: "PingPong", Status: "ok", NP: 2, Groups: 1, Group: -1, Bytes: int64(i), Repetitions: 1000, TMinUS: 1.5, TMaxUS: 1.5, TAvgUS: 1.5, MBps: 600})
	}
	var buf []byte
	for b.Loop() {
		_, buf = digest(r, buf[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/48, "ns/result")
}
