package text

import (
	"bytes"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

// TestArchiveListings: archive list's, show's and history's tables, with
// the unknowns (no date, no label, no locality) as dashes.
func TestArchiveListings(t *testing.T) {
	day := time.Date(2026, 11, 3, 10, 4, 5, 0, time.UTC)
	runs := []archive.RunInfo{
		{ID: 1, RunID: "0f3a", Suite: "imb", Source: "gomb", Started: day, Added: day.Add(time.Hour), System: "hpc4", Config: "ib",
			MPI: "Open MPI 4.1.4", NP: 2, Locality: "inter-node", Results: 24, Status: "complete", Labels: map[string]string{"system": "hpc4", "config": "ib"}},
		{ID: 2, Suite: "osu", Source: "import", File: "osu_latency.log", Added: day, NP: 2, Results: 23},
	}
	golden(t, "archive-list.golden", func(b *bytes.Buffer) error { return Runs(b, runs) })
	r := &result.Bundle{Run: &result.Run{Hosts: []string{"c01", "c02"}, Command: []string{"gomb", "imb", "PingPong"},
		Job:    &result.Job{Scheduler: "slurm", ID: "41", ArrayJob: "40", ArrayTask: "2", NodeList: "c[01-02]", Tasks: []int{1, 1}},
		Source: &result.Source{Meta: map[string]string{"version": "2021.11"}}},
		Results: []*result.Result{{Benchmark: "PingPong", NP: 2, Bytes: 8, Repetitions: 1000, TMinUS: 1.1, TMaxUS: 1.3, TAvgUS: 1.2,
			MBps: 6.67, SamplesUS: [][]float64{{1.1, 1.2}, {1.3}}, Status: "ok"}}}
	golden(t, "archive-show.golden", func(b *bytes.Buffer) error { return Run(b, runs[0], r) })
	pts := []archive.Point{{Run: runs[0], NP: 2, Value: 1.2345678, Status: "ok"}, {Run: runs[1], NP: 2, Value: 2, Status: "failed"}}
	golden(t, "archive-history.golden", func(b *bytes.Buffer) error { return Points(b, "PingPong", 8, "t_avg_us", pts) })
}
