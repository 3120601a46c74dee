// Package fleetjob is gomb fleet's part of a measuring job
// (internal/measure): the nodes and the schedule every rank agrees on,
// the header, the sink of rows and the progress line.
package fleetjob

import (
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/bench/fleetrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/fleettext"
)

// Suite is gomb fleet's part of a measuring job.
type Suite struct {
	cl    *fleet.CommandLine
	tool  string
	hosts []string // every rank's host
	nodes []fleet.Node
	plan  []fleet.Round // one sweep's rounds, run -sweeps times
	done  fleet.DoneSet // -resume's pairs, not measured again
	prev  resumed       // -resume's pairs (rows on rank 0)
}

// New is the sweep of command line cl; tool is the header's gomb and
// version.
func New(cl *fleet.CommandLine, tool string) *Suite {
	return &Suite{cl: cl, tool: tool}
}

var _ measure.Suite[*fleettext.Writer] = (*Suite)(nil)

// Prepare groups the ranks into nodes by the hosts they run on (rank 0's
// view, sent to all: every rank plans the same rounds) and plans the
// sweep; fewer than two nodes is refused.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	var err error
	if u.hosts, err = measure.Hosts(s); err != nil {
		return nil, err
	}
	u.nodes = fleet.NodesOf(u.hosts, u.cl.ByRank)
	if u.plan, err = fleet.Plan(u.nodes, u.cl.Options); err != nil {
		return nil, cli.Usage("%v (-by-rank makes every rank a node of its own)", err)
	}
	if u.cl.Resume != "" {
		if s.Rank == 0 {
			u.prev = readResume(u.cl.Resume, u.nodes, u.cl.Options)
		}
		rows := u.prev.rows
		if err := s.BcastJSON(&u.prev); err != nil {
			return nil, err
		}
		u.prev.rows = rows
		if u.prev.Err != "" {
			return nil, cli.Usage("%s", u.prev.Err)
		}
		u.done = fleet.DoneSet{}
		for _, d := range u.prev.Done {
			u.done[d] = true
		}
	}
	return u.cl.Options, nil
}

// Text is gomb fleet's layout.
func (u *Suite) Text(out io.Writer) *fleettext.Writer { return fleettext.NewWriter(out) }

// Start writes the header and wires the engine.
func (u *Suite) Start(e *measure.Env[*fleettext.Writer]) (*measure.Job, error) {
	s, o := e.Session, u.cl.Options
	// a round's loops: both, at a rate far below any fabric's (1 MB/s),
	// plus a minute for the rest
	perRound := float64(o.LatIters+o.Warmup)*float64(o.LatBytes+64)*2/1e6 +
		float64(o.BWIters+o.BWWarmup())*float64(o.Window)*float64(o.BWBytes)/1e6
	eng := &fleetrun.Engine{Opt: o, World: s.World, RunID: s.RunID(), Nodes: u.nodes, Hosts: u.hosts, Plan: u.plan, Done: u.done, NIC: true,
		Fault: s.Fault, Watch: s.Watch(time.Duration(60+perRound) * time.Second), Note: s.Note}
	if err := e.Preamble(func(w *fleettext.Writer) error { return w.Header(u.header(e.Run)) }); err != nil {
		return nil, err
	}
	if s.Rank == 0 {
		eng.Sink = sink{s, e.Text}
		if p := s.Progress(fleet.Pairs(u.plan)*o.Sweeps - len(u.done)); p != nil {
			eng.Progress = func(pr fleet.Pair) {
				p.Step(u.nodes[pr.NodeA].Host+" - "+u.nodes[pr.NodeB].Host, 2, 0, false)
			}
		}
	}
	run := func() (int, error) {
		// the resumed sweep's rows first, as this run's: one run holds the sweep
		for _, r := range u.prev.rows {
			r.RunID = eng.RunID
			if err := eng.Sink.Result(r); err != nil {
				return 0, err
			}
		}
		return 0, eng.Run()
	}
	return &measure.Job{Sweep: session.Sweep{Run: run, Footer: e.Text.Footer}}, nil
}

func (u *Suite) header(run *result.Run) fleettext.Header {
	h := fleettext.Header{Tool: u.tool, Date: run.Start, Argv: run.Command, Nodes: u.nodes, Opt: u.cl.Options,
		Resumed: len(u.prev.Done), From: u.prev.From}
	h.Rounds, h.Pairs = len(u.plan), fleet.Pairs(u.plan)
	for _, r := range u.plan {
		h.MaxPairs = max(h.MaxPairs, len(r))
	}
	return h
}

// sink is rank 0's fleetrun.Sink: a text line per pair plus records.
type sink struct {
	s    *session.Session
	text *fleettext.Writer
}

func (k sink) Result(r *result.Result) error { return k.s.Result(r, k.text.Result) }
