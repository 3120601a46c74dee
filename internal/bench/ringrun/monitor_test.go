//go:build cgo

package ringrun

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/enginetest"
	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/testutil"
)

func TestMain(m *testing.M) {
	if enginetest.Rank() {
		os.Exit(enginetest.RankMain(ring.ThreadLevel, conformanceSweep()))
	}
	if os.Getenv(testutil.RankEnv) == "1" {
		os.Exit(rankMain())
	}
	os.Exit(m.Run())
}

// TestEngineConformance: the ring monitor as internal/measure relies on
// it, in real jobs of 2 and 4 ranks: a sample a record.
func TestEngineConformance(t *testing.T) { enginetest.Test(t, 2, 4) }

// conformanceSweep is a monitor of three samples and the cold one, each
// made a record as gomb ring makes it.
func conformanceSweep() enginetest.Sweep {
	const count, size = 3, 4096
	return enginetest.Sweep{
		Name: "ring",
		Run: func(w mpi.Comm, c *enginetest.Collector) error {
			mon := &Monitor{Opt: ring.Options{MsgSize: size, IntervalS: 0.001, Count: count}, World: w,
				Stop: func() bool { return false }, Wait: time.Sleep, Watch: c.Watch}
			_, err := mon.Run(func(s ring.Sample) error { return c.Result(ring.Record(enginetest.RunID, size, s, c.Hosts)) })
			return err
		},
		Rows:       func(int) int { return count + 1 },
		NoProgress: true,
	}
}

// rankMain is one rank of TestMonitor's job: a monitor of count samples,
// then one that the last rank asks to stop at its third poll. Rank 0
// prints a FAIL line for each property that does not hold, then "done".
func rankMain() int {
	if _, err := mpi.Init(kernel.ThreadSingle); err != nil {
		fmt.Println("FAIL init:", err)
		return 1
	}
	defer mpi.Finalize()
	w := mpi.World()
	np, rank := w.Size(), w.Rank()
	var fails []string
	fail := func(f string, a ...any) { fails = append(fails, fmt.Sprintf(f, a...)) }
	const count = 3
	opt := ring.Options{MsgSize: 4096, IntervalS: 0.001, Count: count}
	var got []ring.Sample
	mon := &Monitor{Opt: opt, World: w, Stop: func() bool { return false }, Wait: time.Sleep}
	stopped, err := mon.Run(func(s ring.Sample) error { got = append(got, s); return nil })
	switch {
	case err != nil:
		fail("monitor: %v", err)
	case stopped:
		fail("monitor of %d samples says stopped", count)
	case rank == 0 && len(got) != count+1:
		fail("%d samples, want the cold one and %d", len(got), count)
	case rank != 0 && len(got) > 0:
		fail("rank %d emitted %d samples", rank, len(got))
	}
	for i, s := range got {
		if s.Index != i || s.Cold != (i == 0) || len(s.DurS) != np || s.Slowest < 0 || s.Slowest >= np ||
			!(s.MinS > 0 && s.MinS <= s.AvgS && s.AvgS <= s.MaxS) || !(s.MinGBps <= s.AvgGBps && s.AvgGBps <= s.MaxGBps) {
			fail("sample %d: %+v", i, s)
		}
	}
	// any rank's Stop stops every rank, at the same sample
	polls := 0
	got = nil
	opt.Count = 0 // until stopped
	mon = &Monitor{Opt: opt, World: w, Wait: time.Sleep, Stop: func() bool {
		polls++
		return rank == np-1 && polls >= 3
	}}
	stopped, err = mon.Run(func(s ring.Sample) error { got = append(got, s); return nil })
	if err != nil || !stopped {
		fail("rank %d: stopped %v, err %v, when rank %d asked", rank, stopped, err, np-1)
	}
	if rank == 0 && len(got) != 2 {
		fail("%d samples before the stop at the third poll, want 2", len(got))
	}
	return testutil.ReportRanks(rank, fails, func(b []byte) ([][]byte, error) { return w.GathervBytes(b, 0) })
}

// TestMonitor runs the ring monitor in real jobs of 2 and 3 ranks with
// the MPI gomb is built for: a count of samples, then a stop asked by one
// rank that every rank obeys.
func TestMonitor(t *testing.T) {
	for _, np := range []int{2, 3} {
		t.Run(fmt.Sprint(np), func(t *testing.T) {
			for _, f := range testutil.Failures(testutil.LaunchSelf(t, mpi.Family(), np, 2*time.Minute)) {
				t.Error(f)
			}
		})
	}
}
