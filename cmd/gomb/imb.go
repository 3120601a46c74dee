package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/imbrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

// imbHelp is the help of gomb imb (suite imb.Suite), gomb imb-nbc,
// gomb imb-mpi4, gomb imb-ext and gomb imb-rma.
func imbHelp(suite string) func() *cli.Help {
	return func() *cli.Help {
		info := imb.Info(suite)
		intro := ""
		if info.Intro != "" {
			intro = "\n" + info.Intro
		}
		imbFlags := []string{"npmin", "multi", "off_cache", "iter", "iter_policy", "precision", "time", "mem", "msglen",
			"msgsize", "msglog", "map", "input", "include", "exclude", "root_shift", "sync", "imb_barrier", "zero_size",
			"warm_up", "msg_pause", "data_type", "red_data_type", "contig_type", "window_size", "thread_level", "list"}
		if info.Aggregate {
			imbFlags = slices.Insert(imbFlags, 7, "aggregate_mode")
		}
		if info.NoDataType {
			imbFlags = slices.DeleteFunc(imbFlags, func(f string) bool { return f == "data_type" || f == "red_data_type" })
		}
		imbFlags = slices.DeleteFunc(imbFlags, func(f string) bool { return slices.Contains(info.Idle, f) })
		gombFlags := []string{"check", "samples", "nic", "buffers"}
		if info.Dir {
			gombFlags = slices.Insert(gombFlags, 0, "dir")
		}
		groups := []cli.Group{
			{Title: info.Program + " flags (one dash, value after a space):", Flags: imbFlags},
			{Title: "gomb flags:", Flags: slices.Concat(gombFlags, session.RecordFlags, session.WatchFlags)},
			{Title: "Checking against a baseline in the same job:", Flags: confirmFlagNames},
		}
		if len(info.Idle) > 0 {
			groups = slices.Insert(groups, 1, cli.Group{Title: "Taken, as " + info.Program + " takes them, without effect on its benchmarks:", Flags: info.Idle})
		}
		return &cli.Help{
			Usage: fmt.Sprintf("mpirun -np N gomb %s [flags] [benchmark ...]", info.Name),
			Intro: fmt.Sprintf(`Runs the %s benchmarks with %s's measurement semantics, flags
and text tables, and writes every raw sample to a JSON Lines record file.%s
Without names, %s's default list runs, in this order:
%s
Benchmark names are case-insensitive; 'gomb %s -list' shows them all.`, info.Program, info.Program, intro, info.Program,
				wrapList(imb.DefaultNames(suite)), info.Name),
			Groups:   groups,
			Outro:    cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitRegression, cli.ExitWatchdog, cli.ExitSignal}, map[int]string{cli.ExitRegression: "a regression against -baseline"}),
			Examples: info.Examples,
		}
	}
}

// wrapList joins names with commas in lines of at most 78 characters,
// indented by two.
func wrapList(names []string) string {
	var lines []string
	line := " "
	for i, n := range names {
		if i < len(names)-1 {
			n += ","
		}
		if len(line)+1+len(n) > 78 {
			lines = append(lines, line)
			line = " "
		}
		line += " " + n
	}
	return strings.Join(append(lines, line), "\n")
}

// imbConfig is the parsed command line.
type imbConfig struct {
	imb.CommandLine
	session.Flags
	confirm confirmFlags
	list    bool
}

func newIMBConfig(suite string) *imbConfig {
	cfg := &imbConfig{CommandLine: *imb.NewCommandLine()}
	if suite != imb.Suite {
		cfg.Request.Options.Suite = suite
	}
	if suite == imb.SuiteIO {
		cfg.Request.Options.NPMin = 1 // IMB-IO's default
	}
	return cfg
}

// imbCommand is the subcommand of an IMB suite: imb, imb-nbc, imb-mpi4,
// imb-ext, imb-rma.
func imbCommand(suite string) string {
	if suite == imb.Suite {
		return "imb"
	}
	return suite
}

var (
	imbUsage     = helpWriter(imbHelp(imb.Suite), imbFlags(newIMBConfig(imb.Suite)))
	imbNBCUsage  = helpWriter(imbHelp(imb.SuiteNBC), imbFlags(newIMBConfig(imb.SuiteNBC)))
	imbMPI4Usage = helpWriter(imbHelp(imb.SuiteMPI4), imbFlags(newIMBConfig(imb.SuiteMPI4)))
	imbEXTUsage  = helpWriter(imbHelp(imb.SuiteEXT), imbFlags(newIMBConfig(imb.SuiteEXT)))
	imbRMAUsage  = helpWriter(imbHelp(imb.SuiteRMA), imbFlags(newIMBConfig(imb.SuiteRMA)))
	imbIOUsage   = helpWriter(imbHelp(imb.SuiteIO), imbFlags(newIMBConfig(imb.SuiteIO)))
)

func imbFlags(cfg *imbConfig) *flag.FlagSet {
	fs := newFlagSet(imbCommand(cfg.Request.Options.SuiteName()))
	cfg.CommandLine.Register(fs)
	cfg.Flags.Register(fs)
	cfg.confirm.register(fs)
	fs.BoolVar(&cfg.list, "list", false, "list the benchmarks and exit")
	return fs
}

// parseIMB parses gomb imb's command line without touching MPI or files.
// It returns flag.ErrHelp for -help.
func parseIMB(args []string) (*imbConfig, error) { return parseIMBSuite(imb.Suite, args) }

// parseIMBNBC parses gomb imb-nbc's, parseIMBMPI4 gomb imb-mpi4's,
// parseIMBEXT gomb imb-ext's, parseIMBRMA gomb imb-rma's.
func parseIMBNBC(args []string) (*imbConfig, error) { return parseIMBSuite(imb.SuiteNBC, args) }

func parseIMBMPI4(args []string) (*imbConfig, error) { return parseIMBSuite(imb.SuiteMPI4, args) }

func parseIMBEXT(args []string) (*imbConfig, error) { return parseIMBSuite(imb.SuiteEXT, args) }

func parseIMBRMA(args []string) (*imbConfig, error) { return parseIMBSuite(imb.SuiteRMA, args) }

func parseIMBIO(args []string) (*imbConfig, error) { return parseIMBSuite(imb.SuiteIO, args) }

func parseIMBSuite(suite string, args []string) (*imbConfig, error) {
	cfg := newIMBConfig(suite)
	fs := imbFlags(cfg)
	names, err := parseFlags(fs, args)
	if err != nil {
		return cfg, err
	}
	if err := cfg.Finish(fs, names); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := cfg.confirm.check(set); err != nil {
		return cfg, err
	}
	return cfg, cli.Distinct(cfg.Outputs(), []cli.Named{{Flag: "-msglen", Path: cfg.MsgLen}, {Flag: "-input", Path: cfg.Input}})
}

func imbList(suite string) func(w io.Writer) {
	return func(w io.Writer) {
		_, binary := imb.Part(suite)
		fmt.Fprintf(w, "# %s benchmarks in gomb (* = default list, in run order)\n", binary)
		for _, s := range imb.Specs(suite) {
			mark := " "
			if s.Default {
				mark = "*"
			}
			fmt.Fprintf(w, "%s %-24s %s\n", mark, s.Name, s.Summary)
		}
	}
}

// imbSink is rank 0's imb.Sink: IMB text plus records, under the
// session's lock.
type imbSink struct {
	s    *session.Session
	text *imbtext.Writer
	conf *confirmer // -baseline's check (nil: none)
}

func (k imbSink) Exploit(mflops float64) error {
	return k.s.Locked(func() error { return k.text.Exploit(mflops) })
}

func (k imbSink) Table(t *imb.Table) error {
	return k.s.Locked(func() error { return k.text.Table(t) })
}

func (k imbSink) Invalid(s *imb.Spec, np int) error {
	return k.s.Locked(func() error { return k.text.Invalid(s, np) })
}

func (k imbSink) Result(r *result.Result) error {
	if k.conf != nil {
		k.conf.result(r)
	}
	return k.s.Result(r, k.text.Result)
}

// imbProgress is the progress line as imb.Progress.
type imbProgress struct{ p *session.Progress }

func (p imbProgress) Size(s *imb.Spec, np int, size int64, done, total int) {
	p.p.Step(s.Name, np, size, s.HasSize())
}

func runIMB(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.Suite, imbUsage, stdout, stderr, args)
}

func runIMBNBC(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.SuiteNBC, imbNBCUsage, stdout, stderr, args)
}

func runIMBMPI4(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.SuiteMPI4, imbMPI4Usage, stdout, stderr, args)
}

func runIMBEXT(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.SuiteEXT, imbEXTUsage, stdout, stderr, args)
}

func runIMBRMA(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.SuiteRMA, imbRMAUsage, stdout, stderr, args)
}

func runIMBIO(stdout, stderr io.Writer, args []string) error {
	return runIMBSuite(imb.SuiteIO, imbIOUsage, stdout, stderr, args)
}

func runIMBSuite(suite string, u *usage, stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseIMBSuite(suite, args)
	c := &session.Command{Name: imbCommand(suite), Suite: suite, Level: cfg.Thread, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: u.write, List: imbList(suite), Listing: cfg.list}
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		plan, specs, err := planIMB(s, &cfg.CommandLine)
		if err != nil {
			return s.Fail(err)
		}
		done := func() {}
		if suite == imb.SuiteIO {
			if done, err = ioDirectory(s, &plan.Options); err != nil {
				return s.Fail(err)
			}
		}
		conf, err := newConfirmer(s, cfg.confirm)
		if err != nil {
			return s.Fail(err)
		}
		text, run, err := session.Open(s, plan.Options, stdout, imbtext.NewWriter)
		if err != nil {
			return s.Fail(err)
		}
		defer s.OnSignal()()
		eng := &imbrun.Engine{Opt: plan.Options, World: s.World, RunID: s.RunID(), Fault: s.Fault,
			Watch: s.Watch(time.Duration(3 * plan.Options.TimeS * float64(time.Second)))}
		if err := s.OnRoot(func() error { return text.Preamble(imbHeader(run, plan, cfg)) }); err != nil {
			return s.Fail(err)
		}
		footer := wireIMB(s, eng, text, run, conf, plan, specs)
		if err := s.Measure(func() (int, error) {
			sum, err := eng.Run(specs)
			if err == nil {
				done()
			}
			return sum.CheckFailures, err
		}, footer, "-check: %d result rows failed validation (marked '# !! check failed' above)"); err != nil || conf == nil {
			return err
		}
		if n, err := conf.regressions(); err != nil {
			return s.Fail(err)
		} else if n > 0 {
			return s.Fail(&cli.ExitError{Code: cli.ExitRegression, Err: fmt.Errorf("-baseline: %d regressions (the check table above says where)", n)})
		}
		return nil
	})
}

// wireIMB connects the engine to the job: the in-job baseline check after
// each benchmark (its verdict after the table's footer, which it returns),
// and on rank 0 the hosts, the sink of rows and the progress line.
func wireIMB(s *session.Session, eng *imbrun.Engine, text *imbtext.Writer, run *result.Run, conf *confirmer, plan *imb.Plan, specs []*imb.Spec) func() error {
	footer := text.Footer
	if conf != nil {
		conf.text, conf.run = text, run
		eng.After = conf.after
		footer = func() error {
			if err := text.Footer(); err != nil {
				return err
			}
			return text.Text(conf.verdict)
		}
	}
	if s.Rank == 0 {
		eng.Hosts = session.Hosts(run)
		eng.Sink = imbSink{s, text, conf}
		if p := s.Progress(plan.Options.Rows(specs, s.Size)); p != nil {
			eng.Progress = imbProgress{p}
			if conf != nil {
				conf.grow = func(sp *imb.Spec) { p.Grow(plan.Options.Rows([]*imb.Spec{sp}, s.Size)) }
			}
		}
	}
	return footer
}

// ioDirectory settles IMB-IO's directory: -dir's, which rank 0 checks, or
// a new one rank 0 makes under the working directory; every rank gets its
// name. done, called on every rank after the run, removes the files (and
// the directory gomb made); if the job ends early, rank 0 removes what it
// can then.
func ioDirectory(s *session.Session, o *imb.Options) (done func(), err error) {
	made := o.IODir == ""
	if err := s.OnRoot(func() error {
		if made {
			d, err := os.MkdirTemp(".", "gomb-io-")
			if err != nil {
				return fmt.Errorf("IMB-IO's directory: %v", err)
			}
			o.IODir = d
			return nil
		}
		if fi, err := os.Stat(o.IODir); err != nil || !fi.IsDir() {
			return cli.Usage("-dir %s: not a directory", o.IODir)
		}
		// The files are removed after the run: one there before is
		// someone's (another imb-io job's, or a user's), never ours.
		if left := imb.IOFiles(o.IODir); len(left) > 0 {
			return cli.Usage("-dir %s already holds %s, a name IMB-IO writes (another imb-io job in this directory?): choose another -dir or remove it", o.IODir, filepath.Base(left[0]))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := s.BcastJSON(&o.IODir); err != nil {
		return nil, err
	}
	dir := o.IODir
	clean := func() {
		for _, f := range imb.IOFiles(dir) {
			os.Remove(f)
		}
		if made && s.Rank == 0 {
			os.Remove(dir)
		}
	}
	if s.Rank == 0 {
		s.AtExit(clean)
	}
	return func() {
		// once every rank is here every file is closed: the others remove
		// theirs, then rank 0 what is left and the directory
		if s.World.Barrier() != nil {
			return
		}
		if s.Rank != 0 {
			clean()
		}
		if s.World.Barrier() == nil && s.Rank == 0 {
			clean()
			s.ClearAtExit()
		}
	}, nil
}

// planIMB has rank 0 resolve files and names (nodes need not share a file
// system) and gives every rank the same plan.
func planIMB(s *session.Session, cl *imb.CommandLine) (*imb.Plan, []*imb.Spec, error) {
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

func imbHeader(run *result.Run, plan *imb.Plan, cfg *imbConfig) imbtext.Header {
	r0 := run.Ranks[0]
	thread := "" // IMB-MPI1 prints none; gomb names the level when asked for one
	if cfg.Set["thread_level"] {
		thread = run.MPI.Thread
	}
	_, binary := imb.Part(plan.Options.SuiteName())
	h := imbtext.Header{
		Tool:       "gomb " + version + " (" + binary + " 2021.11 compatible)",
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
	for _, name := range plan.Benchmarks {
		if s, ok := imb.Lookup(h.Suite, name); ok && len(s.Comments) > 0 {
			if h.Comments == nil {
				h.Comments = map[string][]string{}
			}
			h.Comments[name] = s.Comments
		}
	}
	for _, s := range plan.Options.Sizes {
		if s > h.MaxMsg {
			h.Capped = append(h.Capped, s)
		}
	}
	return h
}
