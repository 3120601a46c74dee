package osujob

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/osurun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
)

// A test of a many-test job: its options (the command line's, checked
// against it) and engine, or why it does not run.
type planned struct {
	sp     *osu.Spec
	opt    osu.Options
	eng    *osurun.Engine
	notRun error
}

// Many is a job of several tests, or a suite's, one after another in
// one MPI job (plain MPI_Init, as OSU's tests start): each with the
// command line's options, its own table and records. A test the options,
// the process count, the hosts or the MPI library keep from running is
// left out; a test that an MPI error ended on every rank is recorded as
// such and the next goes on (session.Session.Contain); the job ends with
// what did not run and why, which an MPI error ended and which tests
// failed validation (exit status 3 when one did, 6 when a test did not run
// or an MPI error ended one, 2 when none could).
type Many struct {
	opt      *osu.Options
	specs    []*osu.Spec
	s        *session.Session
	plan     []*planned
	notRun   []string // why, for each test that does not run
	text     *osutext.Writer
	progress *session.Progress
	ran      int
	failed   []string
	mpiError []string      // the tests an MPI error ended on every rank, and the error
	contain  bench.Contain // how a test's end goes on
}

// NewMany is the job of the tests specs with options opt.
func NewMany(opt *osu.Options, specs []*osu.Spec) *Many { return &Many{opt: opt, specs: specs} }

var _ measure.Suite[*osutext.Writer] = (*Many)(nil)

// Text is OSU's table layout.
func (m *Many) Text(out io.Writer) *osutext.Writer { return osutext.NewWriter(out) }

// Prepare reads -D indx's file, refuses an existing -c log directory and
// decides which tests run.
func (m *Many) Prepare(s *session.Session) (any, error) {
	m.s = s
	if err := readIndexed(s, m.opt); err != nil {
		return nil, err
	}
	if err := freshLogDir(s, m.opt); err != nil {
		return nil, err
	}
	var err error
	if m.plan, err = m.planned(); err != nil {
		return nil, err
	}
	names, perTest := m.runnable()
	return map[string]any{"tests": names, "test_options": perTest, "options": m.opt}, nil
}

// Start lays the fan tests out and starts the progress line; it refuses a
// job where no test can run.
func (m *Many) Start(e *measure.Env[*osutext.Writer]) (*measure.Job, error) {
	m.text = e.Text
	m.prepare(e.Hosts)
	m.notRun = m.notRunLines()
	if len(m.notRun) == len(m.plan) {
		return nil, cli.Usage("no test can run: %s", strings.Join(m.notRun, "; "))
	}
	var err error
	if m.contain, err = e.Contain(e.Text.Result); err != nil {
		return nil, err
	}
	return &measure.Job{Sweep: session.Sweep{Run: m.sweep, Footer: m.footer, FailMsg: "-c: %d sizes failed validation"},
		Then: func() error {
			if len(m.notRun) > 0 {
				return &cli.ExitError{Code: cli.ExitNotRun, Err: fmt.Errorf("%d of %d tests not run (the summary says why)", len(m.notRun), len(m.plan))}
			}
			return nil
		}}, nil
}

// planned decides, for each test asked for, whether it can run in this
// job (and why not), and makes the engine of those that can.
func (m *Many) planned() ([]*planned, error) {
	s := m.s
	// the fan tests' layout needs every rank's host: known before the run
	// record, so that it lists only the tests that run
	var hosts []string
	if slices.ContainsFunc(m.specs, (*osu.Spec).IsFan) {
		var err error
		if hosts, err = measure.Hosts(s); err != nil {
			return nil, err
		}
	}
	plan := make([]*planned, len(m.specs))
	for i, sp := range m.specs {
		p := &planned{sp: sp, opt: *m.opt}
		plan[i] = p
		if sp.Threads {
			p.notRun = errors.New("needs MPI_THREAD_MULTIPLE, which the other tests do not start MPI with: run it alone")
		} else if p.notRun = p.opt.Check(sp); p.notRun == nil {
			p.notRun = runnable(s, sp, &p.opt)
		}
		if p.notRun == nil {
			p.eng = &osurun.Engine{Opt: p.opt, World: s.World, RunID: s.RunID(), Fault: s.Fault, Hosts: hosts}
			p.notRun = nbrLayout(s, p.eng, sp)
		}
		if p.notRun == nil {
			p.notRun = fanLayout(s, p.eng, sp)
		}
	}
	return plan, nil
}

// runnable are the names and options of the tests that will run, for the
// run record.
func (m *Many) runnable() ([]string, map[string]*osu.Options) {
	var names []string
	perTest := map[string]*osu.Options{}
	for _, p := range m.plan {
		if p.notRun == nil {
			perTest[p.sp.Name], names = &p.opt, append(names, p.sp.Name)
		}
	}
	return names, perTest
}

// prepare gives the engines the watchdog and the hosts and starts the
// progress line over every size of every test.
func (m *Many) prepare(hosts []string) {
	s := m.s
	watch := s.Watch(0)
	total := 0
	for _, p := range m.plan {
		if p.notRun != nil {
			continue
		}
		p.eng.Watch, p.eng.Hosts = watch, hosts
		total += len(p.opt.Sizes(p.sp, s.Size))
	}
	if s.Rank == 0 {
		m.progress = s.Progress(total)
	}
}

// sweep runs the tests one after the other; it returns the sizes that
// failed validation.
func (m *Many) sweep() (int, error) {
	s, bad := m.s, 0
	for _, p := range m.plan {
		if p.notRun != nil {
			continue
		}
		sp := p.sp
		if s.Rank == 0 {
			p.eng.Sink = sink{s, m.text, &p.opt}
			if m.ran+len(m.mpiError) > 0 { // a test ran before this one
				if err := s.Locked(func() error { return m.text.Between(sp) }); err != nil {
					return bad, err
				}
			}
			if m.progress != nil {
				p.eng.Progress = func(size int64, done, total int) { m.progress.Step(sp.Name, s.Size, size, !sp.NoSize) }
			}
		}
		n, err := sweep(s, p.eng, sp)
		if cerr := m.contain(sp.Name, err); cerr != nil {
			return bad, fmt.Errorf("%s: %w", sp.Name, cerr)
		}
		if err != nil { // every rank met an MPI error: recorded, the next test goes on
			msg := strings.Join(strings.Fields(err.Error()), " ") // MPICH's error stacks span lines
			if !strings.HasPrefix(msg, sp.Name) {
				msg = sp.Name + ": " + msg
			}
			m.mpiError = append(m.mpiError, msg)
			continue
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
func (m *Many) notRunLines() []string {
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

// footer is the job's summary comment: tests run, not run and why,
// ended by an MPI error, failed.
func (m *Many) footer() error {
	head := fmt.Sprintf("gomb osu: %d of %d tests run, %d not run, %d failed validation", m.ran, len(m.plan), len(m.notRun), len(m.failed))
	if len(m.mpiError) > 0 {
		head += fmt.Sprintf(", %d ended by an MPI error", len(m.mpiError))
	}
	lines := []string{head}
	for _, l := range m.notRun {
		lines = append(lines, "not run: "+l)
	}
	for _, l := range m.mpiError {
		lines = append(lines, "mpi error: "+l)
	}
	for _, l := range m.failed {
		lines = append(lines, "failed: "+l)
	}
	return m.s.Locked(func() error { return m.text.Comment(lines...) })
}
