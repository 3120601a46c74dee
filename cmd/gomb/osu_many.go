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
		plan := make([]*osuPlanned, len(cfg.specs))
		perTest := map[string]*osu.Options{}
		var names []string
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
			if p.notRun == nil {
				perTest[sp.Name], names = &p.opt, append(names, sp.Name)
			}
		}
		text, run, err := session.Open(s, map[string]any{"tests": names, "test_options": perTest, "options": &cfg.opt}, stdout, osutext.NewWriter)
		if err != nil {
			return s.Fail(err)
		}
		defer s.OnSignal()()
		watch := s.Watch(0)
		var hosts []string
		if s.Rank == 0 {
			hosts = session.Hosts(run)
		}
		total := 0
		for _, p := range plan {
			if p.notRun != nil {
				continue
			}
			p.eng.Watch, p.eng.Hosts = watch, hosts
			if p.notRun = fanLayout(s, p.eng, p.sp); p.notRun != nil {
				continue
			}
			total += len(p.opt.Sizes(p.sp, s.Size))
		}
		var progress *session.Progress
		if s.Rank == 0 {
			progress = s.Progress(total)
		}
		ran := 0
		var failed []string
		sweep := func() (int, error) {
			bad := 0
			for _, p := range plan {
				if p.notRun != nil {
					continue
				}
				sp := p.sp
				if s.Rank == 0 {
					p.eng.Sink = osuSink{s, text, &p.opt}
					if ran > 0 { // a test ran before this one
						if err := s.Locked(func() error { return text.Between(sp) }); err != nil {
							return bad, err
						}
					}
					if progress != nil {
						p.eng.Progress = func(size int64, done, total int) { progress.Step(sp.Name, s.Size, size, !sp.NoSize) }
					}
				}
				n, err := measureOSU(s, p.eng, sp)
				if err != nil {
					return bad, fmt.Errorf("%s: %w", sp.Name, err)
				}
				ran++
				if n > 0 {
					bad += n
					failed = append(failed, fmt.Sprintf("%s: -c: %d sizes failed validation", sp.Name, n))
				}
			}
			return bad, nil
		}
		var notRun []string
		for _, p := range plan {
			if p.notRun != nil {
				msg := p.notRun.Error()
				if !strings.HasPrefix(msg, p.sp.Name) {
					msg = p.sp.Name + ": " + msg
				}
				notRun = append(notRun, msg)
			}
		}
		if len(notRun) == len(plan) {
			return s.Fail(cli.Usage("no test can run: %s", strings.Join(notRun, "; ")))
		}
		footer := func() error {
			lines := []string{fmt.Sprintf("gomb osu: %d of %d tests run, %d not run, %d failed validation", ran, len(plan), len(notRun), len(failed))}
			for _, l := range notRun {
				lines = append(lines, "not run: "+l)
			}
			for _, l := range failed {
				lines = append(lines, "failed: "+l)
			}
			return s.Locked(func() error { return text.Comment(lines...) })
		}
		if err := s.Measure(sweep, footer, "-c: %d sizes failed validation"); err != nil {
			return err
		}
		if len(notRun) > 0 {
			return s.Fail(&cli.ExitError{Code: cli.ExitNotRun, Err: fmt.Errorf("%d of %d tests not run (the summary says why)", len(notRun), len(plan))})
		}
		return nil
	})
}
