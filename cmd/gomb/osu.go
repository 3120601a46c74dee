package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/measure/osujob"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/internal/suite"
)

func osuHelp() *cli.Help {
	return &cli.Help{
		Usage: "mpirun -np N gomb osu TEST [flags] [H|D H|D]\n       mpirun -np N gomb osu TEST|SUITE... [flags]",
		Intro: `Runs OSU Micro-Benchmarks 7 tests with OSU's semantics and text layout
and writes every raw sample to a JSON Lines record file. 'gomb osu -list'
shows the tests; the "osu_" prefix is optional (osu_latency = latency).
Several tests, or a suite (pt2pt, collective, one-sided, startup, all), run
one after another in one job, each with its table; a closing summary says
which did not run and why, and which failed validation.`,
		Groups: []cli.Group{
			{Title: "OSU flags:", Flags: []string{"m,message-size", "i,iterations", "x,warmup", "f,full",
				"W,window-size", "M,mem-limit", "c,validation", "T,type", "k", "l", "z", "d,accelerator", "w", "s", "t", "I,session", "D,ddt", "G,graph", "N,nhbr", "list"}},
			{Title: "gomb flags:", Flags: slices.Concat(session.RecordFlags, session.WatchFlags)},
		},
		Outro: cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage, cli.ExitCheckFailed, cli.ExitWatchdog, cli.ExitNotRun, cli.ExitSignal}, map[int]string{cli.ExitUsage: "bad flags or input (or none of several tests can run)", cli.ExitCheckFailed: "-c found wrong data",
			cli.ExitNotRun: "some of several tests did not run, or an MPI error that every rank met ended them"}),
		Examples: []string{
			"mpirun -np 2 gomb osu latency",
			"mpirun -np 2 gomb osu bw -m 1024:1048576 -json bw.jsonl",
			"mpirun -np 2 gomb osu put_latency -w create -s lock",
			"mpirun -np 8 gomb osu allreduce -f -T mpi_float",
			"mpirun -np 4 gomb osu ialltoall -t 10",
			"mpirun -np 2 gomb osu oneway            # each direction, synchronised clocks",
			"mpirun -np 2 gomb osu latency -d cuda D H",
			"mpirun -np 2 gomb osu latency_mt -t 2:4       # 2 sender, 4 receiver threads",
			"mpirun -np 64 gomb osu init                   # MPI_Init's time on every rank",
			"mpirun -np 8 -npernode 4 gomb osu bw_fan_in   # two or more hosts, as many ranks on each",
			"mpirun -np 27 gomb osu neighbor_alltoall -N cart:3:1   # 3x3x3 grid, 26 neighbours each",
			"mpirun -np 2 gomb osu bw -D vect:8:4          # every message a vector: 4 of every 8 elements",
			"mpirun -np 2 gomb osu latency bw bibw -json pt2pt.jsonl   # three tests, one job",
			"mpirun -np 8 gomb osu collective -m 1:65536   # every collective test",
		},
	}
}

// osuConfig is the parsed command line.
type osuConfig struct {
	opt  osu.Options
	spec *osu.Spec // one test
	// specs: several tests, or a suite's, one after another in one job
	// (osujob.Many)
	specs []*osu.Spec
	session.Flags
	list bool
}

func newOSUConfig() *osuConfig { return &osuConfig{opt: osu.DefaultOptions()} }

var osuUsage = helpWriter(osuHelp, osuFlags(newOSUConfig()))

func osuFlags(cfg *osuConfig) *flag.FlagSet {
	fs := cli.NewFlagSet("osu")
	cfg.opt.Register(fs)
	cfg.Flags.Register(fs)
	fs.BoolVar(&cfg.list, "list", false, "list the tests and exit")
	return fs
}

// parseOSU parses the command line without touching MPI. It returns
// flag.ErrHelp for -help.
func parseOSU(args []string) (*osuConfig, error) {
	cfg := newOSUConfig()
	pos, err := cli.ParseFlags(osuFlags(cfg), osuArgs(args))
	if err != nil || cfg.list {
		return cfg, err
	}
	if many(pos) {
		if cfg.opt.Device != "" {
			return cfg, cli.Usage("-d cuda runs one test at a time")
		}
		if cfg.specs, err = osu.Select(pos); err != nil {
			return cfg, cli.Usage("%v", err)
		}
		return cfg, cli.Distinct(cfg.Outputs(), nil)
	}
	if cfg.spec, err = cfg.opt.Args(pos); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	return cfg, cli.Distinct(cfg.Outputs(), nil)
}

// osuArgs spells OSU's optional -z and -c arguments, which getopt takes
// attached (-z25,75, -clog:DIR), as Go's flag package reads them (-z=25,75,
// -c=log:DIR).
func osuArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case len(a) > 2 && strings.HasPrefix(a, "-z") && a[2] >= '0' && a[2] <= '9':
			a = "-z=" + a[2:]
		case strings.HasPrefix(a, "-clog"):
			a = "-c=" + a[2:]
		}
		out[i] = a
	}
	return out
}

func osuList(w io.Writer) {
	fmt.Fprintf(w, "# OSU Micro-Benchmarks 7 tests in gomb\n")
	width := 0
	for _, s := range osu.Specs() {
		width = max(width, len(s.Name))
	}
	for _, s := range osu.Specs() {
		fmt.Fprintf(w, "  %-*s %s\n", width, s.Name, s.Summary)
	}
	fmt.Fprintf(w, "# suites (several tests in one job): %s\n", strings.Join(osu.Suites, ", "))
}

// many reports whether the positional arguments name several tests or a
// suite rather than one test and its buffer placement letters.
func many(pos []string) bool {
	if len(pos) <= 1 {
		return len(pos) == 1 && osu.IsSuite(pos[0])
	}
	for _, p := range pos[1:] {
		if p != "H" && p != "D" {
			return true
		}
	}
	return false
}

func runOSU(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseOSU(args)
	if perr == nil && cfg.opt.Session && !mpi.SessionsAvailable() {
		perr = cli.Usage("-I: this MPI library has no MPI-4 sessions (MPI_Session_init: MPICH from 4.0, Open MPI from 5.0)")
	}
	c := &session.Command{Name: "osu", Suite: osu.Suite, Level: osu.ThreadLevel, Session: cfg.opt.Session && perr == nil, Version: fullVersion(), Args: args,
		Flags: &cfg.Flags, Help: osuUsage.write, List: osuList, Listing: cfg.list}
	if perr == nil && len(cfg.specs) > 0 {
		// several tests: plain MPI_Init, as OSU's tests start
		return measure.Run(c, nil, stdout, stderr, osujob.NewMany(&cfg.opt, cfg.specs))
	}
	if cfg.spec != nil && cfg.spec.Threads {
		c.Level = kernel.ThreadMultiple // osu_latency_mt's MPI_Init_thread
	}
	return measure.Run(c, perr, stdout, stderr, osujob.NewOne(&cfg.opt, cfg.spec))
}

func init() { suiteTests["osu"] = osuSuiteTest }

// osuSuiteTest is what a suite row's osu test measures at np ranks.
func osuSuiteTest(args []string, np int) (suite.Test, error) {
	cfg, err := parseOSU(args)
	if err != nil {
		return suite.Test{}, err
	}
	specs := cfg.specs
	if cfg.spec != nil {
		specs = append(specs, cfg.spec)
	}
	return suite.Test{Sizes: cfg.opt.SizesOfAll(specs, np), Device: cfg.opt.Device != ""}, nil
}
