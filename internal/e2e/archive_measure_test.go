package e2e

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

// roundTrip imports a job's text table and checks that every number agrees
// with the JSON records of the same run to the precision printed: tolT on
// times (µs), tolB on bandwidths (MB/s).
func roundTrip(t *testing.T, text string, np int, recs []*result.Result, tolT, tolB float64) {
	t.Helper()
	f, err := importer.Import([]byte(text), "stdout", importer.Options{NP: np}) // OSU and ring tables do not say np
	if err != nil {
		t.Fatalf("gomb's own text does not import: %v", err)
	}
	if len(f.Problems) > 0 || len(f.Runs) != 1 {
		t.Fatalf("import: %d runs, problems %v", len(f.Runs), f.Problems)
	}
	got := f.Runs[0].Results
	if len(got) != len(recs) {
		t.Fatalf("%d results in the text, %d in the records", len(got), len(recs))
	}
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+1e-9) }
	for i, want := range recs {
		g := got[i]
		id := fmt.Sprintf("%s np=%d group=%d %d bytes sample %d", want.Benchmark, want.NP, want.Group, want.Bytes, want.Sample)
		if g.Benchmark != want.Benchmark || g.NP != want.NP || g.Bytes != want.Bytes || g.Group != want.Group ||
			g.Cold != want.Cold || g.Status != want.Status {
			t.Errorf("%s: imported as %s np=%d group=%d %d bytes cold=%v %s", id, g.Benchmark, g.NP, g.Group, g.Bytes, g.Cold, g.Status)
			continue
		}
		if want.Repetitions != 0 && g.Repetitions != 0 && g.Repetitions != want.Repetitions {
			t.Errorf("%s: %d repetitions, records say %d", id, g.Repetitions, want.Repetitions)
		}
		// A table with one time column (IMB's t[usec], OSU's latency) gives
		// the importer that time for min, max and average alike: IMB prints
		// the slowest rank's, OSU the average.
		oneTime := g.TMinUS == g.TMaxUS && g.TAvgUS == g.TMaxUS
		tmin, tmax, tavg := want.TMinUS, want.TMaxUS, want.TAvgUS
		if oneTime && want.Suite == "imb" {
			tmin, tavg = tmax, tmax
		} else if oneTime {
			tmin, tmax = tavg, tavg
		}
		if !near(g.TMinUS, tmin, tolT) || !near(g.TMaxUS, tmax, tolT) || !near(g.TAvgUS, tavg, tolT) ||
			!near(g.MBps, want.MBps, tolB) {
			t.Errorf("%s: text %.3f/%.3f/%.3f µs %.3f MB/s, records %.3f/%.3f/%.3f µs %.3f MB/s", id,
				g.TMinUS, g.TMaxUS, g.TAvgUS, g.MBps, want.TMinUS, want.TMaxUS, want.TAvgUS, want.MBps)
		}
	}
}

// TestMeasureIntoArchive: imb, osu and ring add their runs to the archive
// as they are measured (-archive=PATH, labels), with every raw sample; the
// text they print imports to the same numbers as their JSON records.
func TestMeasureIntoArchive(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	type step struct {
		m          mpiLib
		sub        string
		np         int
		args       []string
		tolT, tolB float64
	}
	steps := []step{
		{mpis[0], "imb", 2, []string{"-msglog", "0:8", "-iter", "200", "PingPong", "Allreduce"}, 0.005, 0.005},
		{mpis[1], "imb", 4, []string{"-msglog", "0:6", "-iter", "50", "-multi", "1", "PingPing", "Bcast"}, 0.005, 0.005},
		{mpis[0], "osu", 2, []string{"latency", "-m", "1:1024", "-i", "200"}, 0.005, 0.005},
		{mpis[1], "osu", 2, []string{"iallreduce", "-m", "4:64", "-i", "100"}, 0.005, 0.005},
		{mpis[1], "ring", 2, []string{"--count", "3", "--interval", "0.01", "--msg-size", "64k"}, 0.5, 0.5},
	}
	for i, s := range steps {
		jsonPath := filepath.Join(dir, fmt.Sprintf("run%d.jsonl", i))
		args := append([]string{"-archive=" + db, "-system", "vm", "-label", fmt.Sprintf("step=%d", i), "-json", jsonPath}, s.args...)
		j := launchCmd(t, s.m, s.np, 4*time.Minute, nil, s.sub, args...)
		if j.code != 0 {
			t.Fatalf("%s %s: exit %d\n%s", s.m.name, s.sub, j.code, tail(j.stderr))
		}
		if !strings.Contains(j.stderr, "gomb: run added to "+db+" as run ") {
			t.Errorf("%s %s: no word of the archive on stderr:\n%s", s.m.name, s.sub, tail(j.stderr))
		}
		recs := readRecords(t, jsonPath)
		roundTrip(t, j.stdout, s.np, recs.results, s.tolT, s.tolB)

		a, err := archive.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := a.List(archive.Selector{Labels: map[string]string{"step": fmt.Sprint(i)}})
		if err != nil || len(runs) != 1 {
			a.Close()
			t.Fatalf("step %d: %d runs in the archive (%v)", i, len(runs), err)
		}
		ri := runs[0]
		wantMPI := map[string]string{"openmpi": "Open MPI v4.1", "mpich": "MPICH 4."}[s.m.name]
		if ri.RunID != recs.run.RunID || ri.System != "vm" || ri.Suite != s.sub || ri.NP != s.np || ri.Status != "complete" ||
			ri.Results != len(recs.results) || !strings.HasPrefix(ri.MPI, wantMPI) || ri.Locality != result.IntraNode {
			t.Errorf("step %d: archived as %+v", i, ri)
		}
		stored, err := a.Load(ri.ID)
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		for k, x := range stored.Results {
			if fmt.Sprint(x.SamplesUS) != fmt.Sprint(recs.results[k].SamplesUS) {
				t.Fatalf("step %d: result %d: the archive's raw samples differ from the records'", i, k)
			}
		}
		if stored.End == nil || stored.End.Status != "complete" {
			t.Errorf("step %d: end %+v", i, stored.End)
		}
	}
}
