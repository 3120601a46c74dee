//go:build cgo

package mtrun

import (
	"flag"
	"os"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/enginetest"
	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

func TestMain(m *testing.M) {
	if enginetest.Rank() {
		os.Exit(enginetest.RankMain(kernel.ThreadSingle, sweep("-count", "1,1024", "-repeat", "20", "-warmup", "2",
			"PingPongMT", "BiBandMT", "AllReduceMT", "BarrierMT")))
	}
	os.Exit(m.Run())
}

// TestEngineConformance: the IMB-MT engine (one thread a rank) as
// internal/measure relies on it, in real jobs of 2 and 4 ranks.
func TestEngineConformance(t *testing.T) { enginetest.Test(t, 2, 4) }

type sink struct{ c *enginetest.Collector }

func (sink) Table(*mt.Spec, int, int, int) error { return nil }
func (sink) NoResults(*mt.Spec) error            { return nil }
func (k sink) Result(r *result.Result) error     { return k.c.Result(r) }

func sweep(args ...string) enginetest.Sweep {
	cl := mt.NewCommandLine()
	fs := flag.NewFlagSet("imb-mt", flag.PanicOnError)
	cl.Register(fs)
	fs.Parse(args)
	if err := cl.Finish(fs.Args()); err != nil {
		panic(err)
	}
	var specs []*mt.Spec
	for _, n := range cl.Names {
		sp, _ := mt.Lookup(n)
		specs = append(specs, sp)
	}
	return enginetest.Sweep{
		Name: "IMB-MT",
		Run: func(w mpi.Comm, c *enginetest.Collector) error {
			team, err := mpi.NewMT(false)
			if err != nil {
				return err
			}
			defer team.Free()
			opt := cl.Options
			opt.Threads = team.Threads()
			e := &Engine{Opt: opt, Team: team, World: w, Hosts: c.Hosts, RunID: enginetest.RunID, Watch: c.Watch}
			if w.Rank() == 0 {
				e.Sink, e.Progress = sink{c}, func(*mt.Spec, int64) { c.Step() }
			}
			return e.Run(specs)
		},
		Rows: func(np int) (n int) {
			for _, sp := range specs {
				n += len(cl.CountsOf(sp))
			}
			return n
		},
	}
}
