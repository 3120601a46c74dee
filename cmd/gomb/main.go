// Command gomb measures MPI communication (imb, osu and ring, under an MPI
// launcher) and interprets the measurements (import, archive, compare,
// check, explain, report). Each subcommand lives in its own file: its help
// around its flags, a parse function that reads the command line and
// nothing else, and a run function the tests call directly; the work is
// done by the packages under internal/.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
)

// version is the gomb release; the build revision is appended when known.
var version = "0.1.0"

// mpiErrorEnded is exit status 6 in the -help of the commands that run a
// list of benchmarks in one job (docs/robustness.md).
const mpiErrorEnded = "an MPI error that every rank met ended some of several benchmarks (the others ran)"

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(stdout, stderr io.Writer, args []string) error
	// parse reads a command line as run would, and nothing else: no MPI,
	// no file (the documentation's examples are checked with it).
	parse func(args []string) error
	// usage is its -help (nil: the command has no flags).
	usage *usage
}

// commands is the table of subcommands, in the order help lists them.
var commands = append(imbCommands(), []command{
	{"imb-p2p", "IMB-P2P benchmarks: ping-pong, random pairs and rings, stencils over all ranks", runP2P,
		parsed(parseP2P), p2pUsage},
	{"imb-mt", "IMB-MT benchmarks: OpenMP threads a rank under MPI_THREAD_MULTIPLE, a communicator each", runMT,
		parsed(parseMT), mtUsage},
	{"osu", "OSU Micro-Benchmarks tests with OSU's flags and tables, plus one-way latency", runOSU,
		parsed(parseOSU), osuUsage},
	{"fleet", "every node pair's latency and bandwidth in one job, in rounds of disjoint pairs", runFleet,
		parsed(parseFleet), fleetUsage},
	{"congestion", "congestion impact (GPCNeT): canaries alone and beside congestors on the other nodes", runCongestion,
		parsed(parseCongestion), congestionUsage},
	{"ring", "continuous ring monitor (mpi-comm-bench): bandwidth per sample until stopped, straggler summary", runRing,
		parsed(parseRing), ringUsage},
	{"suite", "acceptance suites: a benchmark's run rules in, its results table out, as one job", runSuiteCmd,
		parsed(parseSuiteCmd), suiteUsage},
	{"import", "turn IMB, OSU and mpi-comm-bench logs (and gomb's text) into gomb records", runImport,
		parsed(parseImport), importUsage},
	{"archive", "the archive of runs (SQLite or PostgreSQL): add, list, show, rm, export, history, check, copy", runArchive,
		parsed(parseArchive), archiveUsage},
	{"compare", "A against B by message size and size band, with significance over repeated runs", runCompare,
		parsed(parseCompare), compareUsage},
	{"check", "a run against a baseline with tolerances, for CI: non-zero exit on a regression", runCheck,
		parsed(parseCheck), checkUsage},
	{"explain", "findings in plain words: variability, cliffs, protocol switches, link efficiency, stragglers", runExplain,
		parsed(parseExplain), explainUsage},
	{"report", "a self-contained HTML report with plots (latency, bandwidth, A/B speed) and the findings", runReport,
		parsed(parseReport), reportUsage},
	{"version", "print gomb's version and the MPI library it was built for", runVersion,
		versionArgs, nil},
}...)

// parsed makes a parse function that drops what it parsed.
func parsed[T any](parse func([]string) (T, error)) func([]string) error {
	return func(args []string) error {
		_, err := parse(args)
		return err
	}
}

// usage is a command's help and the flag set it describes.
type usage struct {
	help func() *cli.Help
	fs   *flag.FlagSet
}

func helpWriter(help func() *cli.Help, fs *flag.FlagSet) *usage { return &usage{help, fs} }

// write prints the help; w keeps a write's error (cli.Print).
func (u *usage) write(w io.Writer) {
	var b strings.Builder
	if err := u.help().Write(&b, u.fs); err != nil {
		panic(err) // a help that names a flag that does not exist: TestHelp fails first
	}
	_, _ = io.WriteString(w, b.String())
}

// helpOr prints a command's help for flag.ErrHelp, and then returns nil
// (or the write's error); any other error it returns.
func helpOr(err error, stdout io.Writer, u *usage) error {
	if errors.Is(err, flag.ErrHelp) {
		return cli.Print(stdout, u.write)
	}
	return err
}

// fullVersion is gomb's version as the build recorded it: the module's
// version when installed as a module (go install ...@v0.2.0), else the
// source's, with the VCS revision, "+dirty" for uncommitted changes, and
// the commit's date when built from a git checkout (-buildvcs).
func fullVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	return cli.StampVersion(version, bi.Main.Version, bi.Settings)
}

func mainUsage(w io.Writer) {
	fmt.Fprintf(w, "gomb %s: Go MPI Benchmarks\n\nUsage:\n  gomb <command> [flags]\n\nCommands:\n", version)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, `
Examples:
  mpirun -np 2 gomb imb PingPong                 # IMB-MPI1 PingPong, IMB's table
  mpirun -np 4 gomb imb -json run.jsonl          # the default IMB list, plus records
  mpirun -np 2 gomb imb -check Allreduce         # validate every received buffer
  mpirun -np 2 gomb imb -archive -system hpc4 PingPong  # and keep the run in the archive
  srun -N 2 --mpi=pmix gomb imb PingPong         # under Slurm (gomb-mpich: --mpi=pmi2)
  gomb import -system hpc4 old/*.log > old.jsonl  # IMB/OSU logs as records
  gomb archive history -b PingPong -bytes 8 system=hpc4

'gomb <command> -help' describes a command's flags.
`)
}

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		mainUsage(stderr)
		return cli.Usage("no command given")
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		return cli.Print(stdout, mainUsage)
	}
	if err := archive.CheckArgs(args); err != nil {
		return cli.Usage("%v", err)
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(stdout, stderr, args[1:])
		}
	}
	return cli.Usage("unknown command %q; 'gomb help' lists the commands", name)
}

func main() {
	stdout := io.Writer(os.Stdout)
	if cli.StdoutClosed() {
		stdout = cli.ClosedOutput{}
	}
	err := run(stdout, os.Stderr, os.Args[1:])
	if err == nil {
		mpi.Exit(0)
	}
	var r cli.Reported
	if !errors.As(err, &r) {
		msg := err.Error()
		if !strings.HasPrefix(msg, "gomb") {
			msg = "gomb: " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
	}
	mpi.Exit(cli.Code(err))
}
