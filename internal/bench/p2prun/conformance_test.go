//go:build cgo

package p2prun

import (
	"flag"
	"os"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/enginetest"
	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

func TestMain(m *testing.M) {
	if enginetest.Rank() {
		os.Exit(enginetest.RankMain(kernel.NoThreadInit, sweep("-msgsz", "8", "-msgsz", "4096", "-iter", "20", "-pause", "0",
			"PingPong", "Stencil2D", "Birandom")))
	}
	os.Exit(m.Run())
}

// TestEngineConformance: the IMB-P2P engine as internal/measure relies on
// it, in real jobs of 2 and 4 ranks.
func TestEngineConformance(t *testing.T) { enginetest.Test(t, 2, 4) }

type sink struct{ c *enginetest.Collector }

func (sink) Table(*p2p.Spec, int) error      { return nil }
func (sink) Invalid(*p2p.Spec, int) error    { return nil }
func (k sink) Result(r *result.Result) error { return k.c.Result(r) }

func sweep(args ...string) enginetest.Sweep {
	cl := p2p.NewCommandLine()
	fs := flag.NewFlagSet("imb-p2p", flag.PanicOnError)
	cl.Register(fs)
	fs.Parse(args)
	if err := cl.Finish(fs.Args()); err != nil {
		panic(err)
	}
	var specs []*p2p.Spec
	for _, n := range cl.Names {
		sp, _ := p2p.Lookup(n)
		specs = append(specs, sp)
	}
	return enginetest.Sweep{
		Name: "IMB-P2P",
		Run: func(w mpi.Comm, c *enginetest.Collector) error {
			e := &Engine{Opt: cl.Options, World: w, Hosts: c.Hosts, RunID: enginetest.RunID, Watch: c.Watch}
			if w.Rank() == 0 {
				e.Sink, e.Progress = sink{c}, func(*p2p.Spec, int64) { c.Step() }
			}
			return e.Run(specs)
		},
		Rows: func(np int) (n int) {
			for _, sp := range specs {
				if sp.Runs(np) {
					n += len(cl.Sizes)
				}
			}
			return n
		},
	}
}
