// Command gomb measures MPI communication (imb, osu and ring, under an MPI
// launcher) and interprets the measurements (import, archive, compare,
// check, explain, report). Each subcommand lives in its own file
// with its usage, flags and a run function the tests call directly.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// version is the gomb release; the build revision is appended when known.
var version = "0.1.0"

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(stdout, stderr io.Writer, args []string) error
}

// commands is the table of subcommands, in the order help lists them.
var commands = []command{
	{"imb", "IMB-MPI1 benchmarks with IMB's flags and tables (run under mpirun/mpiexec/srun)", runIMB},
	{"osu", "OSU Micro-Benchmarks tests with OSU's flags and tables, plus one-way latency", runOSU},
	{"ring", "continuous ring monitor (mpi-comm-bench): bandwidth per sample until stopped, straggler summary", runRing},
	{"import", "turn IMB, OSU and mpi-comm-bench logs (and gomb's text) into gomb records", runImport},
	{"archive", "the SQLite archive of runs: add, list, show, rm, export, history, check", runArchive},
	{"compare", "A against B by message size and size band, with significance over repeated runs", runCompare},
	{"check", "a run against a baseline with tolerances, for CI: non-zero exit on a regression", runCheck},
	{"explain", "findings in plain words: variability, cliffs, protocol switches, link efficiency, stragglers", runExplain},
	{"report", "a self-contained HTML report with plots (latency, bandwidth, A/B speed) and the findings", runReport},
	{"version", "print gomb's version and the MPI library it was built for", runVersion},
}

// exitError carries an exit status through the error chain.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Exit statuses.
const (
	exitFailure     = 1 // the run failed (MPI error, I/O error)
	exitUsage       = 2 // bad flags or input
	exitCheckFailed = 3 // -check found wrong data
	exitWatchdog    = 5 // a deadline passed: the watchdog ended the job
)

func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// errReported is an error whose message has already been printed (by rank
// 0 only); main just exits with its status.
type errReported struct{ code int }

func (e errReported) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exitCode maps an error to the process exit status.
func exitCode(err error) int {
	var r errReported
	if errors.As(err, &r) {
		return r.code
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitFailure
}

func fullVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
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
  gomb import -system hpc4 old/*.log > old.jsonl  # IMB/OSU logs as records
  gomb archive history -b PingPong -bytes 8 system=hpc4

'gomb <command> -help' describes a command's flags.
`)
}

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		mainUsage(stderr)
		return &exitError{code: exitUsage, err: errors.New("no command given")}
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
	return usageErr("unknown command %q; 'gomb help' lists the commands", name)
}

func main() {
	err := run(os.Stdout, os.Stderr, os.Args[1:])
	if err == nil {
		os.Exit(0)
	}
	var r errReported
	if !errors.As(err, &r) {
		msg := err.Error()
		if !strings.HasPrefix(msg, "gomb") {
			msg = "gomb: " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
	}
	os.Exit(exitCode(err))
}
