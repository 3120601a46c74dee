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
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"golang.org/x/sys/unix"
)

// version is the gomb release; the build revision is appended when known.
var version = "0.1.0"

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
var commands = []command{
	{"imb", imb.Info(imb.Suite).Summary, runIMB,
		parsed(parseIMB), imbUsage},
	{"imb-nbc", imb.Info(imb.SuiteNBC).Summary, runIMBNBC,
		parsed(parseIMBNBC), imbNBCUsage},
	{"imb-mpi4", imb.Info(imb.SuiteMPI4).Summary, runIMBMPI4,
		parsed(parseIMBMPI4), imbMPI4Usage},
	{"imb-ext", imb.Info(imb.SuiteEXT).Summary, runIMBEXT,
		parsed(parseIMBEXT), imbEXTUsage},
	{"imb-rma", imb.Info(imb.SuiteRMA).Summary, runIMBRMA,
		parsed(parseIMBRMA), imbRMAUsage},
	{"imb-io", imb.Info(imb.SuiteIO).Summary, runIMBIO,
		parsed(parseIMBIO), imbIOUsage},
	{"imb-p2p", "IMB-P2P benchmarks: ping-pong, random pairs and rings, stencils over all ranks", runP2P,
		parsed(parseP2P), p2pUsage},
	{"imb-mt", "IMB-MT benchmarks: OpenMP threads a rank under MPI_THREAD_MULTIPLE, a communicator each", runMT,
		parsed(parseMT), mtUsage},
	{"osu", "OSU Micro-Benchmarks tests with OSU's flags and tables, plus one-way latency", runOSU,
		parsed(parseOSU), osuUsage},
	{"ring", "continuous ring monitor (mpi-comm-bench): bandwidth per sample until stopped, straggler summary", runRing,
		parsed(parseRing), ringUsage},
	{"import", "turn IMB, OSU and mpi-comm-bench logs (and gomb's text) into gomb records", runImport,
		parsed(parseImport), importUsage},
	{"archive", "the SQLite archive of runs: add, list, show, rm, export, history, check", runArchive,
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
}

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

// write prints the help.
func (u *usage) write(w io.Writer) {
	if err := u.help().Write(w, u.fs); err != nil {
		panic(err) // a help that names a flag that does not exist: TestHelp fails first
	}
}

// newFlagSet is a command's flag set; its errors and help are the
// command's to print.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("gomb "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses flags and positional arguments in any order. -help
// returns flag.ErrHelp; a bad flag, a usage error that names the
// command's help.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := cli.ParseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, err
	case err != nil:
		msg := strings.TrimPrefix(err.Error(), "flag: ")
		if m := boolValue.FindStringSubmatch(msg); m != nil {
			// a flag that may stand alone (-z, -c) with a value it refuses:
			// the flag package calls that a boolean, which misleads
			msg = fmt.Sprintf("-%s %s: %s", m[2], m[1], m[3])
		}
		return nil, cli.Usage("%s ('%s -help' lists the flags)", msg, fs.Name())
	}
	return pos, nil
}

// boolValue is the flag package's error for a value a flag that may stand
// alone refuses.
var boolValue = regexp.MustCompile(`^invalid boolean value (".*") for -(\S+): (.*)$`)

// stdoutClosed reports whether the caller closed standard output (gomb
// >&-). The Go runtime opens /dev/null read-write in place of a closed
// standard descriptor, so that no file gomb opens takes its number; a
// shell's >/dev/null opens it write-only. Output to a closed standard
// output is lost, so gomb fails rather than report success.
func stdoutClosed() bool {
	var st, null unix.Stat_t
	if unix.Fstat(1, &st) != nil || unix.Stat(os.DevNull, &null) != nil || st.Rdev != null.Rdev || st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return false
	}
	fl, err := unix.FcntlInt(1, unix.F_GETFL, 0)
	return err == nil && fl&unix.O_ACCMODE == unix.O_RDWR
}

// closedOutput is standard output that the caller closed: what is
// written there is lost, so writing fails.
type closedOutput struct{}

func (closedOutput) Write([]byte) (int, error) {
	return 0, errors.New("write to standard output: it is closed")
}

// parseCommand parses the flags and arguments of a command that needs no
// MPI. -help returns flag.ErrHelp; a bad flag, a usage error that starts
// with the command's name.
func parseCommand(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, cli.Usage("%s: %v", strings.TrimPrefix(fs.Name(), "gomb "), strings.TrimPrefix(err.Error(), "flag: "))
	}
	return pos, err
}

// helpOr prints a command's help for flag.ErrHelp, and then returns nil;
// any other error it returns.
func helpOr(err error, stdout io.Writer, u *usage) error {
	if errors.Is(err, flag.ErrHelp) {
		u.write(stdout)
		return nil
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
	return stampVersion(version, bi.Main.Version, bi.Settings)
}

func stampVersion(source, module string, settings []debug.BuildSetting) string {
	v := source
	// A module version names a release (go install ...@v0.2.0, or a
	// tagged checkout); v0.0.0-date-rev is Go's name for an untagged
	// commit, which the source's version and the revision say better.
	if module != "" && module != "(devel)" && !strings.HasPrefix(module, "v0.0.0-") {
		v = strings.TrimPrefix(module, "v")
	}
	var rev, when string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) >= 12 && !strings.Contains(v, rev[:12]) {
		rev = rev[:12]
		if dirty {
			rev += "+dirty"
		}
		if t, err := time.Parse(time.RFC3339, when); err == nil {
			rev += ", " + t.UTC().Format("2006-01-02")
		}
		v += " (" + rev + ")"
	}
	return v
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
		mainUsage(stdout)
		return nil
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
	if stdoutClosed() {
		stdout = closedOutput{}
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
