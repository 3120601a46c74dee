package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/imbjob"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/internal/suite"
)

// imbHelp is the help of an IMB suite's subcommand (gomb imb, imb-nbc,
// imb-mpi4, imb-ext, imb-rma, imb-io).
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
			Outro:    cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitRegression, cli.ExitWatchdog, cli.ExitNotRun, cli.ExitSignal}, map[int]string{cli.ExitRegression: "a regression against -baseline", cli.ExitNotRun: mpiErrorEnded}),
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
	imbjob.Config
	session.Flags
	list bool
}

func newIMBConfig(suite string) *imbConfig {
	cfg := &imbConfig{Config: imbjob.Config{CommandLine: *imb.NewCommandLine(), Tool: "gomb " + version}}
	if suite != imb.Suite {
		cfg.Request.Options.Suite = suite
	}
	if n := imb.Info(suite).NPMin; n > 0 {
		cfg.Request.Options.NPMin = n
	}
	return cfg
}

func imbFlags(cfg *imbConfig) *flag.FlagSet {
	fs := cli.NewFlagSet(cfg.Request.Options.SuiteName())
	cfg.CommandLine.Register(fs)
	cfg.Flags.Register(fs)
	registerConfirm(fs, &cfg.Confirm)
	fs.BoolVar(&cfg.list, "list", false, "list the benchmarks and exit")
	return fs
}

// parseIMBSuite parses the command line of an IMB suite's subcommand
// without touching MPI or files. It returns flag.ErrHelp for -help.
func parseIMBSuite(suite string, args []string) (*imbConfig, error) {
	cfg := newIMBConfig(suite)
	fs := imbFlags(cfg)
	names, err := cli.ParseFlags(fs, args)
	if err != nil {
		return cfg, err
	}
	if err := cfg.Finish(fs, names); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkConfirm(&cfg.Confirm, set); err != nil {
		return cfg, err
	}
	for _, o := range cfg.Outputs() {
		if imb.IsIOFile(o.Path, cfg.Request.Options.IODir) {
			return cfg, cli.Usage("%s %s: IMB-IO writes that file in -dir and removes it after the run; write elsewhere", o.Flag, o.Path)
		}
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

// imbCommands are the IMB suites' subcommands, in imb.Suites' order.
func imbCommands() []command {
	var cs []command
	for _, suite := range imb.Suites {
		u := helpWriter(imbHelp(suite), imbFlags(newIMBConfig(suite)))
		run := func(stdout, stderr io.Writer, args []string) error {
			return runIMBSuite(suite, u, stdout, stderr, args)
		}
		parse := func(args []string) (*imbConfig, error) { return parseIMBSuite(suite, args) }
		cs = append(cs, command{suite, imb.Info(suite).Summary, run, parsed(parse), u})
	}
	return cs
}

func runIMBSuite(suite string, u *usage, stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseIMBSuite(suite, args)
	c := &session.Command{Name: suite, Suite: suite, Level: cfg.Thread, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: u.write, List: imbList(suite), Listing: cfg.list}
	return measure.Run(c, perr, stdout, stderr, imbjob.New(&cfg.Config))
}

func init() {
	for _, name := range imb.Suites {
		suiteTests[name] = func(args []string, np int) (suite.Test, error) { return imbSuiteTest(name, args, np) }
	}
}

// imbSuiteTest is what a suite row's test of an IMB suite measures at np
// ranks.
func imbSuiteTest(name string, args []string, np int) (suite.Test, error) {
	cfg, err := parseIMBSuite(name, args)
	if err != nil {
		return suite.Test{}, err
	}
	p, err := imb.Resolve(cfg.Request, np)
	if err != nil {
		return suite.Test{}, err
	}
	return suite.Test{Sizes: p.Sizes()}, nil
}
