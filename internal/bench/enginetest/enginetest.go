//go:build cgo

// Package enginetest is the conformance suite of gomb's measuring engines
// (imbrun, osurun, p2prun, mtrun, ringrun): what internal/measure and the
// session rely on an engine for, checked in the engine's own package under
// real MPI jobs (testutil.LaunchSelf) with the MPI library the package is
// built against; scripts/test.sh runs the engines' packages with both.
//
// An engine's test gives a few small Sweeps. On every rank, each sweep
// must end without error; on rank 0 alone the engine hands over the rows
// the sweep expects, in order, and one progress step a row; every rank's
// watchdog is told what runs next at least once a row. Each measured row
// carries the run id, a process count within the job, its timing ranks
// with a mean and every raw sample each (one a repetition; none in IMB's
// aggregate mode, which times a batch of repetitions), times that
// are finite and ordered (min <= avg <= max), and the locality of the
// hosts it was given.
package enginetest

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// RunID is the run id every sweep's rows must carry.
const RunID = "c0ffee00c0ffee00"

// A Sweep is one small measurement of an engine.
type Sweep struct {
	Name string
	// Runs says whether the sweep runs at np ranks (nil: at any).
	Runs func(np int) bool
	// Run measures on w with an engine whose RunID is RunID, whose Hosts
	// are c.Hosts, whose sink hands rows to c.Result and progress to
	// c.Step on rank 0, and whose Watch is c.Watch.
	Run func(w mpi.Comm, c *Collector) error
	// Rows is how many rows rank 0 must get at np ranks.
	Rows func(np int) int
	// NoProgress: the engine has no progress line (the ring monitor).
	NoProgress bool
}

// Collector is what a sweep's engine hands over on one rank.
type Collector struct {
	Hosts   []string // every rank on one host
	results []*result.Result
	steps   int
	phases  int
}

// Result keeps a row (the engine's sink).
func (c *Collector) Result(r *result.Result) error {
	c.results = append(c.results, r)
	return nil
}

// Step counts a progress step.
func (c *Collector) Step() { c.steps++ }

// Watch counts what the watchdog is told.
func (c *Collector) Watch(watchdog.Phase) { c.phases++ }

// rankEnv marks the ranks of a conformance job (beside testutil.RankEnv,
// which a package's own self-launched jobs may also read).
const rankEnv = "GOMB_ENGINETEST"

// Rank reports whether this test binary runs as a rank of Test's job: its
// TestMain then exits with RankMain's status.
func Rank() bool { return os.Getenv(rankEnv) == "1" }

// RankMain runs the sweeps as one rank of Test's job, MPI started at
// level, and returns the rank's exit status; rank 0 prints a FAIL line
// for what does not conform, then "done".
func RankMain(level kernel.ThreadLevel, sweeps ...Sweep) int {
	if _, err := mpi.Init(level); err != nil {
		fmt.Println("FAIL init:", err)
		return 1
	}
	defer mpi.Finalize()
	w := mpi.World()
	var fails []string
	for _, s := range sweeps {
		if s.Runs == nil || s.Runs(w.Size()) {
			for _, f := range check(w, s) {
				fails = append(fails, s.Name+": "+f)
			}
		}
	}
	return testutil.ReportRanks(w.Rank(), fails, func(b []byte) ([][]byte, error) { return w.GathervBytes(b, 0) })
}

// Test runs the package's sweeps (its TestMain's RankMain) in jobs of
// each of nps ranks; -short keeps the first.
func Test(t *testing.T, nps ...int) {
	for _, np := range testutil.ShortRanks(nps...) {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			out := testutil.LaunchSelf(t, mpi.Family(), np, 3*time.Minute, rankEnv+"=1")
			for _, f := range testutil.Failures(out) {
				t.Error(f)
			}
		})
	}
}

// check runs one sweep on this rank and says what does not conform.
func check(w mpi.Comm, s Sweep) []string {
	np, rank := w.Size(), w.Rank()
	c := &Collector{Hosts: slices.Repeat([]string{"node0"}, np)}
	if err := s.Run(w, c); err != nil {
		return []string{fmt.Sprintf("rank %d: %v", rank, err)}
	}
	var fails []string
	fail := func(f string, a ...any) { fails = append(fails, fmt.Sprintf(f, a...)) }
	if c.phases < len(c.results) || c.phases == 0 {
		fail("rank %d: the watchdog was told %d phases for %d rows", rank, c.phases, len(c.results))
	}
	if rank != 0 {
		if len(c.results) > 0 || c.steps > 0 {
			fail("rank %d: %d rows and %d progress steps (rank 0's alone)", rank, len(c.results), c.steps)
		}
		return fails
	}
	if want := s.Rows(np); len(c.results) != want {
		fail("%d rows, want %d", len(c.results), want)
	}
	if !s.NoProgress && c.steps != len(c.results) {
		fail("%d progress steps for %d rows", c.steps, len(c.results))
	}
	for i, r := range c.results {
		for _, f := range checkRow(r, np) {
			fail("row %d (%s %d B): %s", i, r.Benchmark, r.Bytes, f)
		}
	}
	return fails
}

// checkRow says what a measured row lacks.
func checkRow(r *result.Result, np int) []string {
	var fails []string
	fail := func(f string, a ...any) { fails = append(fails, fmt.Sprintf(f, a...)) }
	if r.RunID != RunID || r.Suite == "" || r.Benchmark == "" {
		fail("run id %q, suite %q, benchmark %q", r.RunID, r.Suite, r.Benchmark)
	}
	if r.Status != result.StatusOK {
		fail("status %q", r.Status)
		return fails
	}
	if r.NP < 1 || r.NP > np || r.Repetitions < 1 {
		fail("np %d in a job of %d, %d repetitions", r.NP, np, r.Repetitions)
	}
	if len(r.Ranks) == 0 || len(r.RankMeanUS) != len(r.Ranks) || len(r.SamplesUS) != len(r.Ranks) {
		fail("%d timing ranks, %d means, %d sample lists", len(r.Ranks), len(r.RankMeanUS), len(r.SamplesUS))
		return fails
	}
	seen := map[int]bool{}
	for i, k := range r.Ranks {
		if k < 0 || k >= np || seen[k] {
			fail("timing ranks %v", r.Ranks)
			break
		}
		seen[k] = true
		// IMB's aggregate mode times the repetitions as one batch: no
		// repetition has a time of its own, the rank's mean is the sample
		if n := len(r.SamplesUS[i]); n != r.Repetitions && !(n == 0 && r.Mode == result.ModeAggregate) {
			fail("rank %d kept %d samples of %d repetitions", k, n, r.Repetitions)
		}
		for _, v := range append([]float64{r.RankMeanUS[i]}, r.SamplesUS[i]...) {
			if !(v >= 0) || math.IsInf(v, 0) {
				fail("rank %d: a time of %v us", k, v)
				break
			}
		}
	}
	const slack = 1e-9
	if !(r.TMinUS >= 0 && r.TMinUS <= r.TAvgUS+slack && r.TAvgUS <= r.TMaxUS+slack) || math.IsInf(r.TMaxUS, 0) {
		fail("t_min %v, t_avg %v, t_max %v us", r.TMinUS, r.TAvgUS, r.TMaxUS)
	}
	if r.Locality != result.IntraNode || r.HostCount != 1 {
		fail("locality %q over %d hosts, all ranks on one", r.Locality, r.HostCount)
	}
	return fails
}
