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
	imbjob.Config
	session.Flags
	list bool
}

func newIMBConfig(suite string) *imbConfig {
	cfg := &imbConfig{Config: imbjob.Config{CommandLine: *imb.NewCommandLine(), Tool: "gomb " + version}}
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
	registerConfirm(fs, &cfg.Confirm)
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
	if err := checkConfirm(&cfg.Confirm, set); err != nil {
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
	return measure.Run(c, perr, stdout, stderr, imbjob.New(&cfg.Config))
}
