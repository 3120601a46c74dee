//go:build cgo

package osurun

import (
	"flag"
	"os"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/enginetest"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

func TestMain(m *testing.M) {
	if enginetest.Rank() {
		os.Exit(enginetest.RankMain(kernel.NoThreadInit,
			sweep("-m", "1:64", "-i", "20", "-x", "2", "latency"),
			sweep("-m", "1024:4096", "-i", "10", "-x", "2", "bw"),
			sweep("-m", "4:16", "-i", "10", "-x", "2", "put_latency"),
			sweep("-m", "4:64", "-i", "20", "-x", "2", "allreduce"),
			sweep("-i", "20", "-x", "2", "barrier"),
			sweep("-m", "8:8", "-i", "20", "-x", "2", "-t", "1", "iallgather"),
		))
	}
	os.Exit(m.Run())
}

// TestEngineConformance: the OSU engine as internal/measure relies on it,
// in real jobs of 2 and 4 ranks (the point-to-point and one-sided tests
// at 2).
func TestEngineConformance(t *testing.T) { enginetest.Test(t, 2, 4) }

type sink struct{ c *enginetest.Collector }

func (sink) Table(*osu.Table) error          { return nil }
func (k sink) Result(r *result.Result) error { return k.c.Result(r) }

// sweep is one OSU test's command line as a conformance sweep.
func sweep(args ...string) enginetest.Sweep {
	o := osu.DefaultOptions()
	fs := flag.NewFlagSet("osu", flag.PanicOnError)
	o.Register(fs)
	fs.Parse(args)
	sp, err := o.Args(fs.Args())
	if err != nil {
		panic(err)
	}
	return enginetest.Sweep{
		Name: "osu " + sp.Name,
		Runs: func(np int) bool { return o.CheckWorld(sp, np) == nil },
		Run: func(w mpi.Comm, c *enginetest.Collector) error {
			e := &Engine{Opt: o, World: w, Hosts: c.Hosts, RunID: enginetest.RunID, Watch: c.Watch}
			if w.Rank() == 0 {
				e.Sink, e.Progress = sink{c}, func(int64, int, int) { c.Step() }
			}
			_, err := e.Run(sp)
			return err
		},
		Rows: func(np int) int { return len(o.Sizes(sp, np)) },
	}
}
