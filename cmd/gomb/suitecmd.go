package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
)

// suiteFlagSet is the command line of a measuring subcommand with a
// driver of its own (imb-p2p, imb-mt): its flags, and the benchmark
// names checked once parsed.
type suiteFlagSet interface {
	Register(fs *flag.FlagSet)
	Finish(names []string) error
}

// suiteConfig is such a subcommand's parsed command line: its own, the
// session's flags, -list.
type suiteConfig[C suiteFlagSet] struct {
	CL C
	session.Flags
	list bool
}

func suiteFlags[C suiteFlagSet](name string, cfg *suiteConfig[C]) *flag.FlagSet {
	fs := cli.NewFlagSet(name)
	cfg.CL.Register(fs)
	cfg.Flags.Register(fs)
	fs.BoolVar(&cfg.list, "list", false, "list the benchmarks and exit")
	return fs
}

// parseSuite parses the subcommand's command line without touching MPI.
func parseSuite[C suiteFlagSet](name string, cl C, args []string) (*suiteConfig[C], error) {
	cfg := &suiteConfig[C]{CL: cl}
	names, err := cli.ParseFlags(suiteFlags(name, cfg), args)
	if err != nil {
		return cfg, err
	}
	if err := cfg.CL.Finish(names); err != nil {
		return cfg, cli.Usage("%v", err)
	}
	var inputs []cli.Named
	if in, ok := any(cl).(interface{ Inputs() []cli.Named }); ok {
		inputs = in.Inputs()
	}
	return cfg, cli.Distinct(cfg.Outputs(), inputs)
}

// suiteList prints -list: every benchmark and its summary, all of them
// in the default list.
func suiteList(binary string, names, summaries func() []string) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprintf(w, "# %s benchmarks in gomb (all run by default, in this order)\n", binary)
		s := summaries()
		for i, n := range names() {
			fmt.Fprintf(w, "* %-24s %s\n", n, s[i])
		}
	}
}
