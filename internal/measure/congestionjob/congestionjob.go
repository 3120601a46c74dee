// Package congestionjob is gomb congestion's part of a measuring job
// (internal/measure): the nodes and the layout every rank agrees on, the
// header, the sink of rows, the progress line and, at the end, the
// congestion impact factors of the rows (package analysis's, written by
// the text layout).
package congestionjob

import (
	"fmt"
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/bench/congestionrun"
	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/congestiontext"
)

// Suite is gomb congestion's part of a measuring job.
type Suite struct {
	cl     *congestion.CommandLine
	tool   string
	layout congestion.Layout
	rows   []*result.Result // rank 0's, for the impact factors
}

// New is the test of command line cl; tool is the header's gomb and
// version.
func New(cl *congestion.CommandLine, tool string) *Suite {
	return &Suite{cl: cl, tool: tool}
}

var _ measure.Suite[*congestiontext.Writer] = (*Suite)(nil)

// Prepare groups the ranks into nodes by host (rank 0's view, sent to
// all) and lays them out; too few nodes, or -canaries naming none of
// them, is refused.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	hosts, err := measure.Hosts(s)
	if err != nil {
		return nil, err
	}
	if u.layout, err = congestion.Plan(fleet.NodesOf(hosts, u.cl.ByRank), u.cl.Options); err != nil {
		return nil, cli.Usage("%v (-by-rank makes every rank a node of its own)", err)
	}
	return u.cl.Options, nil
}

// Text is gomb congestion's layout.
func (u *Suite) Text(out io.Writer) *congestiontext.Writer { return congestiontext.NewWriter(out) }

// Start writes the header and wires the engine.
func (u *Suite) Start(e *measure.Env[*congestiontext.Writer]) (*measure.Job, error) {
	s, o := e.Session, u.cl.Options
	eng := &congestionrun.Engine{Opt: o, World: s.World, RunID: s.RunID(), Layout: u.layout,
		Watch: s.Watch(time.Duration(o.CapS()+120) * time.Second)}
	if err := e.Preamble(func(w *congestiontext.Writer) error {
		return w.Header(congestiontext.Header{Tool: u.tool, Date: e.Run.Start, Argv: e.Run.Command, Layout: u.layout, Opt: o})
	}); err != nil {
		return nil, err
	}
	if s.Rank == 0 {
		eng.Sink = sink{u, s, e.Text}
		if p := s.Progress(2 * o.Trials); p != nil {
			eng.Progress = func(trial int, phase string) {
				p.Step(fmt.Sprintf("trial %d %s", trial+1, phase), 0, 0, false)
			}
		}
	}
	// rank 0's, after the trials: the impact factors of its rows
	footer := func() error { return e.Text.Footer(analysis.CongestionOf(u.rows)) }
	return &measure.Job{Sweep: session.Sweep{Run: func() (int, error) { return 0, eng.Run() }, Footer: footer}}, nil
}

// sink is rank 0's congestionrun.Sink: a text line per row plus records,
// and the rows kept for the impact factors.
type sink struct {
	u    *Suite
	s    *session.Session
	text *congestiontext.Writer
}

func (k sink) Result(r *result.Result) error {
	k.u.rows = append(k.u.rows, r)
	return k.s.Result(r, k.text.Result)
}
