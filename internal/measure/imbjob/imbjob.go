// Package imbjob is the IMB suites' part of a measuring job
// (internal/measure): IMB-MPI1, IMB-NBC, IMB-MPI4, IMB-EXT, IMB-RMA and
// IMB-IO, which share one engine (imbrun) and one text layout: the plan
// resolved on rank 0, IMB-IO's directory, the in-job baseline check
// (confirm.go), the header, the sink of rows and the progress line.
package imbjob

import (
	"fmt"
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/imbrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// Config is an IMB suite's parsed command line.
type Config struct {
	imb.CommandLine
	Confirm Confirm // -baseline, -confirm, -tol
	Tool    string  // the header's tool line: gomb and its version
}

// Suite is one IMB suite's part of a measuring job.
type Suite struct {
	cfg   *Config
	plan  *imb.Plan
	specs []*imb.Spec
	done  func() // IMB-IO: removes the files after the run
	conf  *confirmer
}

// New is the suite of cfg, an IMB suite's command line (cfg.Request's
// suite).
func New(cfg *Config) *Suite { return &Suite{cfg: cfg, done: func() {}} }

var _ measure.Suite[*imbtext.Writer] = (*Suite)(nil)

// Prepare resolves the plan, IMB-IO's directory and the baseline.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	var err error
	if u.plan, u.specs, err = plan(s, &u.cfg.CommandLine); err != nil {
		return nil, err
	}
	if u.plan.Options.SuiteName() == imb.SuiteIO {
		if u.done, err = ioDirectory(s, &u.plan.Options); err != nil {
			return nil, err
		}
	}
	if u.conf, err = newConfirmer(s, u.cfg.Confirm); err != nil {
		return nil, err
	}
	return u.plan.Options, nil
}

// Text is IMB's table layout.
func (u *Suite) Text(out io.Writer) *imbtext.Writer { return imbtext.NewWriter(out) }

// Start writes the header and wires the engine: the in-job baseline check
// after each benchmark (its verdict after the table's footer), and on
// rank 0 the sink of rows and the progress line.
func (u *Suite) Start(e *measure.Env[*imbtext.Writer]) (*measure.Job, error) {
	s, opt, text, conf := e.Session, u.plan.Options, e.Text, u.conf
	eng := &imbrun.Engine{Opt: opt, World: s.World, RunID: s.RunID(), Fault: s.Fault, Hosts: e.Hosts,
		Watch: s.Watch(time.Duration(3 * opt.TimeS * float64(time.Second)))}
	if err := e.Preamble(func(w *imbtext.Writer) error { return w.Preamble(u.header(e.Run)) }); err != nil {
		return nil, err
	}
	if len(u.specs) > 1 { // an MPI error every rank met ends one benchmark of several, not the job
		var err error
		if eng.Contain, err = s.Contain(text.Result); err != nil {
			return nil, err
		}
	}
	job := &measure.Job{Sweep: session.Sweep{Run: func() (int, error) {
		sum, err := eng.Run(u.specs)
		if err == nil {
			u.done()
		}
		return sum.CheckFailures, err
	}, Footer: text.Footer, FailMsg: "-check: %d result rows failed validation (marked '# !! check failed' above)"}}
	if conf != nil {
		conf.text, conf.run = text, e.Run
		eng.After = conf.after
		job.Footer = func() error {
			if err := text.Footer(); err != nil {
				return err
			}
			return text.Text(conf.verdict)
		}
		job.Then = conf.then
	}
	if s.Rank == 0 {
		eng.Sink = sink{s, text, conf}
		if p := s.Progress(opt.Rows(u.specs, s.Size)); p != nil {
			eng.Progress = progress{p}
			if conf != nil {
				conf.grow = func(sp *imb.Spec) { p.Grow(opt.Rows([]*imb.Spec{sp}, s.Size)) }
			}
		}
	}
	return job, nil
}

// plan has rank 0 resolve files and names (nodes need not share a file
// system) and gives every rank the same plan.
func plan(s *session.Session, cl *imb.CommandLine) (*imb.Plan, []*imb.Spec, error) {
	var plan imb.Plan
	if s.Rank == 0 {
		p, err := imb.Resolve(cl.Request, s.Size)
		if err != nil {
			p = &imb.Plan{Err: err.Error()}
		}
		plan = *p
	}
	if err := s.BcastJSON(&plan); err != nil {
		return nil, nil, err
	}
	if plan.Err != "" {
		return nil, nil, cli.Usage("%s", plan.Err)
	}
	var specs []*imb.Spec
	for _, n := range plan.Benchmarks {
		sp, _ := imb.Lookup(plan.Options.SuiteName(), n)
		specs = append(specs, sp)
	}
	if err := imbrun.Usable(specs, plan.Options); err != nil {
		return nil, nil, cli.Usage("%v", err)
	}
	return &plan, specs, nil
}

// header is IMB's preamble of this run.
func (u *Suite) header(run *result.Run) imbtext.Header {
	r0, plan := run.Ranks[0], u.plan
	thread := "" // IMB-MPI1 prints none; gomb names the level when asked for one
	if u.cfg.Set["thread_level"] {
		thread = run.MPI.Thread
	}
	_, binary := imb.Part(plan.Options.SuiteName())
	h := imbtext.Header{
		Tool:       fmt.Sprintf("%s (%s 2021.11 compatible)", u.cfg.Tool, binary),
		Suite:      plan.Options.SuiteName(),
		Date:       run.Start,
		Machine:    r0.Machine,
		System:     "Linux",
		Release:    r0.Kernel,
		Version:    r0.KernelVersion,
		MPIVersion: run.MPI.Standard,
		Thread:     thread,
		Argv:       run.Command,
		UserSizes:  plan.Options.Sizes != nil,
		MaxMsg:     int64(1) << plan.Options.MsgLogMax,
		Type:       plan.Options.Type.String(),
		RedType:    plan.Options.RedType.String(),
		Benchmarks: plan.Benchmarks,
	}
	for _, sp := range u.specs {
		if len(sp.Comments) > 0 {
			if h.Comments == nil {
				h.Comments = map[string][]string{}
			}
			h.Comments[sp.Name] = sp.Comments
		}
	}
	for _, s := range plan.Options.Sizes {
		if s > h.MaxMsg {
			h.Capped = append(h.Capped, s)
		}
	}
	return h
}

// sink is rank 0's imbrun.Sink: IMB text plus records, under the
// session's lock.
type sink struct {
	s    *session.Session
	text *imbtext.Writer
	conf *confirmer // -baseline's check (nil: none)
}

func (k sink) Exploit(mflops float64) error {
	return k.s.Locked(func() error { return k.text.Exploit(mflops) })
}

func (k sink) Table(t *imb.Table) error {
	return k.s.Locked(func() error { return k.text.Table(t) })
}

func (k sink) Invalid(s *imb.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Invalid(s, np) })
}

func (k sink) Result(r *result.Result) error {
	if k.conf != nil {
		k.conf.result(r)
	}
	return k.s.Result(r, k.text.Result)
}

// progress is the progress line as imbrun.Progress.
type progress struct{ p *session.Progress }

func (p progress) Size(s *imb.Spec, np int, size int64, done, total int) {
	p.p.Step(s.Name, np, size, s.HasSize())
}
