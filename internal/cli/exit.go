// Package cli is the command-line plumbing gomb's commands share: exit
// statuses carried by errors, flag values used by more than one command,
// -help text generated from the flags themselves, and output files that
// never destroy a command's inputs.
package cli

import (
	"errors"
	"fmt"
	"strings"
)

// Exit statuses, the same for every command.
const (
	ExitFailure     = 1 // the run failed (MPI error, I/O error)
	ExitUsage       = 2 // bad flags or input
	ExitCheckFailed = 3 // -check or -c found wrong data
	ExitRegression  = 4 // gomb check found a regression
	ExitWatchdog    = 5 // a deadline passed: the watchdog ended the job
	ExitNotRun      = 6 // of several tests asked for, some did not run (gomb osu: its summary says why)
	// ExitSignal stands for 128 + the number of the signal that ended
	// the job (SIGINT, SIGTERM), as a shell reports it.
	ExitSignal = 128
)

// Status is one exit status and what it means: Meaning as the
// documentation's table says it, Short as a command's -help does.
type Status struct {
	Code           int
	Short, Meaning string
}

// Statuses are every status a gomb command exits with. The README's line,
// docs/campaigns.md's table and every command's -help are rendered from
// them (TestExitStatusesInDocs holds the documents to it).
var Statuses = []Status{
	{0, "success", "the run completed"},
	{ExitFailure, "run failed", "the run failed (an MPI error, an I/O error)"},
	{ExitUsage, "bad flags or input", "bad flags or input (nothing measured), or the launcher and the build disagree (srun's `--mpi` plugin, another MPI's launcher)"},
	{ExitCheckFailed, "-check found wrong data", "`-check` / `-c` found wrong data"},
	{ExitRegression, "a regression", "`gomb check`, or a run's `-baseline`, found a regression"},
	{ExitWatchdog, "the watchdog ended the job", "the watchdog ended the job: an MPI call did not return in time"},
	{ExitNotRun, "some of several tests did not run", "of several tests asked for, some did not run (`gomb osu`: the summary says why) or an MPI error that every rank met ended them, and the others ran"},
	{ExitSignal, "when interrupted (records written so far stay valid)", "interrupted by a signal (SIGINT, SIGTERM): 128 + its number; the records written so far stay valid"},
}

// status is the entry of code (a zero Status for none).
func status(code int) Status {
	for _, s := range Statuses {
		if s.Code == code {
			return s
		}
	}
	return Status{}
}

// statusWord is how a list names a code: "3", or "128+signal".
func statusWord(code int) string {
	if code == ExitSignal {
		return "128+signal"
	}
	return fmt.Sprint(code)
}

// ExitHelp is a command's "Exit status: ..." paragraph for its -help, in
// lines of at most 78 characters: the codes it exits with, in the order
// given, each with its Short meaning or the command's own words for it
// (own[code]). A code Statuses does not know is a programming error.
func ExitHelp(codes []int, own map[int]string) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		words, ok := own[c]
		if !ok {
			s := status(c)
			if s.Short == "" {
				panic(fmt.Sprintf("cli.ExitHelp: exit status %d is not in cli.Statuses", c))
			}
			words = s.Short
		}
		parts[i] = statusWord(c) + " " + words
	}
	return strings.Join(wrap("Exit status: "+strings.Join(parts, ", ")+".", 78), "\n")
}

// ExitSummary is the one-sentence list of every status, as the README
// gives it.
func ExitSummary() string {
	parts := make([]string, len(Statuses))
	for i, s := range Statuses {
		parts[i] = statusWord(s.Code) + " " + s.Short
	}
	return strings.Join(parts, ", ") + "."
}

// ExitTable is the Markdown table of every status, as docs/campaigns.md
// gives it.
func ExitTable() string {
	var b strings.Builder
	b.WriteString("| status | meaning |\n|---|---|\n")
	for _, s := range Statuses {
		fmt.Fprintf(&b, "| %s | %s |\n", statusWord(s.Code), s.Meaning)
	}
	return b.String()
}

// ExitError carries an exit status through the error chain.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// Usage is a bad-input error (exit status 2).
func Usage(format string, a ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

// Reported is an error whose message has already been printed (by rank 0
// only, or line by line as files were read); main only exits with Code.
type Reported struct{ Code int }

func (e Reported) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Code maps an error to the process exit status.
func Code(err error) int {
	var r Reported
	if errors.As(err, &r) {
		return r.Code
	}
	var e *ExitError
	if errors.As(err, &e) {
		return e.Code
	}
	return ExitFailure
}
