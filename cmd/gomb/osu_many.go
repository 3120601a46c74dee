package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/osurun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
)

// A test of a many-test job: its options (the command line's, checked
// against it) and engine, or why it does not run.
type osuPlanned struct {
	sp     *osu.Spec
	opt    osu.Options
	eng    *osurun.Engine
	notRun error
}

// runOSUMany runs several tests, or a suite's, one after another in one
// MPI job (plain MPI_Init, as OSU's tests start): each with the command
// line's options, its own table and records. A test the options, the
// process count, the hosts or the MPI library keep from running is left
// out, and the job ends with what did not run and why, and which tests
// failed validation (exit status 3 when one did, 6 when a test did not
// run, 2 when none could).
func runOSUMany(stdout, stderr io.Writer, args []string, cfg *osuConfig) error {
	c := &session.Command{Name: "osu", Suite: osu.Suite, Level: osu.ThreadLevel, Session: cfg.opt.Session, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: osuUsage.write, List: osuList}
	return session.Run(c, nil, stdout, stderr, func(s *session.Session) error {
		if err := readIndexed(s, &cfg.opt); err != nil {
			return s.Fail(err)
		}
		if err := freshLogDir(s, &cfg.opt); err != nil {
			return s.Fail(err)
		}
		m := &osuMany{s: s, plan: planOSUMany(s, cfg)}
		names, perTest := m.runnable()
		text, run, err := session.Open(s, map[string]any{"tests": names, "test_options": perTest, "options": &cfg.opt}, stdout, osutext.NewWriter)
		if err != nil {
			return s.Fail(err)
		}
		m.text = text
		defer s.OnSignal()()
		m.prepare(run)
		notRun := m.notRunLines()
		if len(notRun) == len(m.plan) {
			return s.Fail(cli.Usage("no test can run: %s", strings.Join(notRun, "; ")))
		}
		footer := func() error { return m.footer(notRun) }
		if err := s.Measure(m.sweep, footer, "-c: %d sizes failed validation"); err != nil {
			return err
		}
		if len(notRun) > 0 {
			return s.Fail(&cli.ExitError{Code: cli.ExitNotRun, Err: fmt.Errorf("%d of %d tests not run (the summary says why)", len(notRun), len(m.plan))})
		}
		return nil
	})
}

// osuMany is one osu job of several tests: the plan, and what the sweep
// counts for the footer.
type osuMany struct {
	s        *session.Session
	plan     []*osuPlanned
	text     *osutext.Writer
	progress *session.Progress
	ran      int
	failed   []string
}

// planOSUMany decides, for each test asked for, whether it can run in
// this job (and why not), and makes the engine of those that can.
func planOSUMany(s *session.Session, cfg *osuConfig) []*osuPlanned {
	plan := make([]*osuPlanned, len(cfg.specs))
	for i, sp := range cfg.specs {
		p := &osuPlanned{sp: sp, opt: cfg.opt}
		plan[i] = p
		if sp.Threads {
			p.notRun = errors.New("needs MPI_THREAD_MULTIPLE, which the other tests do not start MPI with: run it alone")
		} else if p.notRun = p.opt.Check(sp); p.notRun == nil {
			p.notRun = runnable(s, sp, &p.opt)
		}
		if p.notRun == nil {
			p.eng = &osurun.Engine{Opt: p.opt, World: s.World, RunID: s.RunID(), Fault: s.Fault}
			p.notRun = nbrLayout(s, p.eng, sp)
		}
	}
	return plan
}

// runnable are the names and options of the tests that will run, for the
// run record.
func (m *osuMany) runnable() ([]string, map[string]*osu.Options) {
	var names []string
	perTest := map[string]*osu.Options{}
	for _, p := range m.plan {
		if p.notRun == nil {
			perTest[p.sp.Name], names = &p.opt, append(names, p.sp.Name)
		}
	}
	return names, perTest
}

// prepare gives the engines the watchdog and the hosts, lays out the fan
// tests and starts the progress line over every size of every test.
func (m *osuMany) prepare(run *result.Run) {
	s := m.s
	watch := s.Watch(0)
	var hosts []string
	if s.Rank == 0 {
		hosts = session.Hosts(run)
	}
	total := 0
	for _, p := range m.plan {
		if p.notRun != nil {
			continue
		}
		p.eng.Watch, p.eng.Hosts = watch, hosts
		if p.notRun = fanLayout(s, p.eng, p.sp); p.notRun != nil {
			continue
		}
		total += len(p.opt.Sizes(p.sp, s.Size))
	}
	if s.Rank == 0 {
		m.progress = s.Progress(total)
	}
}

// sweep runs the tests one after the other; it returns the sizes that
// failed validation.
func (m *osuMany) sweep() (int, error) {
	s, bad := m.s, 0
	for _, p := range m.plan {
		if p.notRun != nil {
			continue
		}
		sp := p.sp
		if s.Rank == 0 {
			p.eng.Sink = osuSink{s, m.text, &p.opt}
			if m.ran > 0 { // a test ran before this one
				if err := s.Locked(func() error { return m.text.Between(sp) }); err != nil {
					return bad, err
				}
			}
			if m.progress != nil {
				p.eng.Progress = func(size int64, done, total int) { m.progress.Step(sp.Name, s.Size, size, !sp.NoSize) }
			}
		}
		n, err := measureOSU(s, p.eng, sp)
		if err != nil {
			return bad, fmt.Errorf("%s: %w", sp.Name, err)
		}
		m.ran++
		if n > 0 {
			bad += n
			m.failed = append(m.failed, fmt.Sprintf("%s: -c: %d sizes failed validation", sp.Name, n))
		}
	}
	return bad, nil
}

// notRunLines says, for each test that does not run, why.
func (m *osuMany) notRunLines() []string {
	var notRun []string
	for _, p := range m.plan {
		if p.notRun != nil {
			msg := p.notRun.Error()
			if !strings.HasPrefix(msg, p.sp.Name) {
				msg = p.sp.Name + ": " + msg
			}
			notRun = append(notRun, msg)
		}
	}
	return notRun
}

// footer is the job's summary comment: tests run, not run and why, failed.
func (m *osuMany) footer(notRun []string) error {
	lines := []string{fmt.Sprintf("gomb osu: %d of %d tests run, %d not run, %d failed validation", m.ran, len(m.plan), len(notRun), len(m.failed))}
	for _, l := range notRun {
		lines = append(lines, "not run: "+l)
	}
	for _, l := range m.failed {
		lines = append(lines, "failed: "+l)
	}
	return m.s.Locked(func() error { return m.text.Comment(lines...) })
}
