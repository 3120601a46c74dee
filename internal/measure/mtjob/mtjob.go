// Package mtjob is IMB-MT's part of a measuring job (internal/measure):
// the benchmarks' checks against the job, the OpenMP team, the preamble,
// the sink of rows and the progress line.
package mtjob

import (
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/bench/mtrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// Suite is IMB-MT's part of a measuring job.
type Suite struct {
	cl    *mt.CommandLine
	tool  string
	specs []*mt.Spec
	team  *mpi.MT // freed after the sweep; MPI_Finalize frees it if the job ends before
}

// New is the suite of IMB-MT's command line cl; tool is the preamble's
// gomb and version.
func New(cl *mt.CommandLine, tool string) *Suite { return &Suite{cl: cl, tool: tool} }

var _ measure.Suite[*imbtext.MTWriter] = (*Suite)(nil)

// Prepare refuses what cannot run with this job's ranks and thread level
// and starts the thread team.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	o := &u.cl.Options
	for _, n := range u.cl.Names {
		sp, _ := mt.Lookup(n)
		if sp.Unpaired(o, s.Size) {
			return nil, cli.Usage("%s: no rank has a partner at -stride %d with %d processes (at most half the ranks, %d)",
				sp.Name, o.Stride, s.Size, s.Size/2)
		}
		u.specs = append(u.specs, sp)
	}
	if u.cl.Multiple && s.Provided() < kernel.ThreadMultiple {
		// IMB-MT stops here too ("can't setup a required MPI threading mode")
		return nil, cli.Usage("-thread_level multiple: this MPI library provides only %s; IMB-MT's threads need MPI_THREAD_MULTIPLE", s.Provided())
	}
	team, err := mpi.NewMT(o.Multiple)
	if err != nil {
		return nil, err
	}
	u.team = team
	o.Threads = team.Threads()
	return *o, nil
}

// Text is IMB-MT's table layout.
func (u *Suite) Text(out io.Writer) *imbtext.MTWriter { return imbtext.NewMTWriter(out) }

// Start writes the preamble and wires the engine.
func (u *Suite) Start(e *measure.Env[*imbtext.MTWriter]) (*measure.Job, error) {
	s, text := e.Session, e.Text
	eng := &mtrun.Engine{Opt: u.cl.Options, Team: u.team, World: s.World, RunID: s.RunID(), Hosts: e.Hosts, Fault: s.Fault,
		Watch: s.Watch(5 * time.Minute)}
	if !u.cl.NoHeader {
		if err := e.Preamble(func(w *imbtext.MTWriter) error { return w.Preamble(u.tool + " (IMB-MT 2021.11 compatible)") }); err != nil {
			return nil, err
		}
	}
	if len(u.specs) > 1 { // an MPI error every rank met ends one benchmark of several, not the job
		var err error
		if eng.Contain, err = s.Contain(sink{s, text}.row); err != nil {
			return nil, err
		}
	}
	if s.Rank == 0 {
		eng.Sink = sink{s, text}
		rows := 0
		for _, sp := range u.specs {
			rows += len(u.cl.CountsOf(sp))
		}
		if p := s.Progress(rows); p != nil {
			eng.Progress = func(sp *mt.Spec, bytes int64) { p.Step(sp.Name, s.Size, bytes, !sp.Sizeless()) }
		}
	}
	return &measure.Job{Sweep: session.Sweep{
		Run: func() (int, error) {
			defer u.team.Free()
			err := eng.Run(u.specs)
			return eng.CheckFailures, err
		},
		Footer: text.Footer, FailMsg: "-check: %d result rows failed validation (marked '# !! check failed' above)",
	}}, nil
}

// sink is rank 0's mtrun.Sink: IMB-MT text plus records.
type sink struct {
	s    *session.Session
	text *imbtext.MTWriter
}

func (k sink) Table(s *mt.Spec, np, threads, window int) error {
	return k.s.Locked(func() error { return k.text.Table(s, np, threads, window) })
}

func (k sink) NoResults(s *mt.Spec) error {
	return k.s.Locked(func() error { return k.text.NoResults(s) })
}

func (k sink) Result(r *result.Result) error { return k.s.Result(r, k.row) }

// row is r in IMB-MT's text.
func (k sink) row(r *result.Result) error {
	s, _ := mt.Lookup(r.Benchmark)
	return k.text.Result(s, r)
}
