// Package cli is the command-line plumbing gomb's commands share: exit
// statuses carried by errors, flag values used by more than one command,
// -help text generated from the flags themselves, and output files that
// never destroy a command's inputs.
package cli

import (
	"errors"
	"fmt"
)

// Exit statuses, the same for every command.
const (
	ExitFailure     = 1 // the run failed (MPI error, I/O error)
	ExitUsage       = 2 // bad flags or input
	ExitCheckFailed = 3 // -check or -c found wrong data
	ExitRegression  = 4 // gomb check found a regression
	ExitWatchdog    = 5 // a deadline passed: the watchdog ended the job
	ExitNotRun      = 6 // of several tests asked for, some did not run (gomb osu: its summary says why)
)

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
