// Package p2pjob is IMB-P2P's part of a measuring job (internal/measure):
// the header, the sink of rows and the progress line.
package p2pjob

import (
	"fmt"
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/bench/p2prun"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// Suite is IMB-P2P's part of a measuring job.
type Suite struct {
	cl    *p2p.CommandLine
	tool  string
	specs []*p2p.Spec
}

// New is the suite of IMB-P2P's command line cl; tool is the header's
// gomb and version.
func New(cl *p2p.CommandLine, tool string) *Suite { return &Suite{cl: cl, tool: tool} }

var _ measure.Suite[*imbtext.P2PWriter] = (*Suite)(nil)

// Prepare looks the benchmarks up: every one runs at any process count.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	for _, n := range u.cl.Names {
		sp, _ := p2p.Lookup(n)
		u.specs = append(u.specs, sp)
	}
	return u.cl.Options, nil
}

// Text is IMB-P2P's table layout.
func (u *Suite) Text(out io.Writer) *imbtext.P2PWriter { return imbtext.NewP2PWriter(out) }

// Start writes the header and wires the engine.
func (u *Suite) Start(e *measure.Env[*imbtext.P2PWriter]) (*measure.Job, error) {
	s, text, cl := e.Session, e.Text, u.cl
	eng := &p2prun.Engine{Opt: cl.Options, World: s.World, RunID: s.RunID(), Hosts: e.Hosts, Fault: s.Fault,
		Watch: s.Watch(time.Duration(max(60, 2*float64(cl.PauseUS)/1e6+30)) * time.Second)}
	if err := e.Preamble(func(w *imbtext.P2PWriter) error { return w.Preamble(u.header(e.Run)) }); err != nil {
		return nil, err
	}
	if len(u.specs) > 1 { // an MPI error every rank met ends one benchmark of several, not the job
		var err error
		if eng.Contain, err = s.Contain(text.Result); err != nil {
			return nil, err
		}
	}
	if s.Rank == 0 {
		eng.Sink = sink{s, text}
		rows := 0
		for _, sp := range u.specs {
			if sp.Runs(s.Size) {
				rows += len(cl.Sizes)
			}
		}
		if p := s.Progress(rows); p != nil {
			eng.Progress = func(sp *p2p.Spec, size int64) { p.Step(sp.Name, s.Size, size, true) }
		}
	}
	return &measure.Job{Sweep: session.Sweep{Run: func() (int, error) { return 0, eng.Run(u.specs) }, Footer: text.Footer}}, nil
}

func (u *Suite) header(run *result.Run) imbtext.P2PHeader {
	r0 := run.Ranks[0]
	return imbtext.P2PHeader{Tool: fmt.Sprintf("%s (IMB-P2P 2021.11 compatible)", u.tool), Date: run.Start,
		Machine: r0.Machine, System: "Linux", Release: r0.Kernel, Version: r0.KernelVersion, MPIVersion: run.MPI.Standard,
		Argv: run.Command, Benchmarks: u.cl.Names, MinSize: u.cl.MinSize(), MaxSize: u.cl.MaxSize()}
}

// sink is rank 0's p2prun.Sink: IMB-P2P text plus records.
type sink struct {
	s    *session.Session
	text *imbtext.P2PWriter
}

func (k sink) Table(s *p2p.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Table(s.Title(np), np) })
}

func (k sink) Invalid(s *p2p.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Invalid(s.InvalidLine(np)) })
}

func (k sink) Result(r *result.Result) error { return k.s.Result(r, k.text.Result) }
