//go:build cgo

package imbrun

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/enginetest"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

func TestMain(m *testing.M) {
	if enginetest.Rank() {
		os.Exit(enginetest.RankMain(kernel.ThreadSingle,
			imbSweep("IMB-MPI1", imb.Suite, "-msglog", "0:2", "-iter", "20", "-npmin", "2", "PingPong", "Allreduce", "Barrier"),
			imbSweep("IMB-EXT", imb.SuiteEXT, "-msglog", "3:4", "-iter", "10", "Unidir_Put"),
			imbSweep("IMB-NBC", imb.SuiteNBC, "-msglog", "2:3", "-iter", "10", "Ibcast"),
		))
	}
	os.Exit(m.Run())
}

// TestEngineConformance: the IMB engine as internal/measure relies on it,
// in real jobs of 2 and 4 ranks.
func TestEngineConformance(t *testing.T) { enginetest.Test(t, 2, 4) }

// sink hands the engine's rows to the conformance collector.
type sink struct{ c *enginetest.Collector }

func (sink) Exploit(float64) error                  { return nil }
func (sink) Table(*imb.Table) error                 { return nil }
func (sink) Invalid(*imb.Spec, int) error           { return nil }
func (k sink) Result(r *result.Result) error        { return k.c.Result(r) }
func (k sink) Size(*imb.Spec, int, int64, int, int) { k.c.Step() }

// imbSweep is one IMB suite's command line as a conformance sweep, its
// rows those the plan's sizes and process counts make.
func imbSweep(name, suite string, args ...string) enginetest.Sweep {
	plan := func(np int) (*imb.Plan, []*imb.Spec, error) {
		cl := imb.NewCommandLine()
		if suite != imb.Suite {
			cl.Request.Options.Suite = suite
		}
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		cl.Register(fs)
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		if err := cl.Finish(fs, fs.Args()); err != nil {
			return nil, nil, err
		}
		p, err := imb.Resolve(cl.Request, np)
		if err != nil {
			return nil, nil, err
		}
		var specs []*imb.Spec
		for _, n := range p.Benchmarks {
			sp, ok := imb.Lookup(p.Options.SuiteName(), n)
			if !ok {
				return nil, nil, fmt.Errorf("no benchmark %s", n)
			}
			specs = append(specs, sp)
		}
		return p, specs, nil
	}
	return enginetest.Sweep{
		Name: name,
		Run: func(w mpi.Comm, c *enginetest.Collector) error {
			p, specs, err := plan(w.Size())
			if err != nil {
				return err
			}
			e := &Engine{Opt: p.Options, World: w, Hosts: c.Hosts, RunID: enginetest.RunID, Watch: c.Watch}
			if w.Rank() == 0 {
				e.Sink, e.Progress = sink{c}, sink{c}
			}
			_, err = e.Run(specs)
			return err
		},
		Rows: func(np int) int {
			p, specs, err := plan(np)
			if err != nil {
				return -1
			}
			return p.Options.Rows(specs, np)
		},
	}
}
