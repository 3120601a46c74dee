package main

// What the measuring commands (imb, osu, ring) share: MPI start-up and
// shutdown, agreement between ranks (one error line from rank 0), the
// watchdog, and the signal handling that keeps records valid. Where
// records go is records.go; what they say of the run, provenance.go.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// session is one measuring command running under MPI.
type session struct {
	cmd      string // "imb", "osu", "ring": prefixes error lines
	world    mpi.Comm
	rank     int
	size     int
	level    kernel.ThreadLevel // asked for (NoThreadInit: MPI_Init)
	provided kernel.ThreadLevel
	stderr   io.Writer
	out      *output
	labels   map[string]string // the run's labels (-system, -config, -label)
	dog      *watchdog.Dog     // ends the job when a deadline passes (nil: not watching)
	rankHost []string          // each rank's host, on rank 0
}

// startSession initialises MPI. Errors before MPI runs come from every rank
// (there is no rank yet); everything after goes through fail.
func startSession(cmd string, level kernel.ThreadLevel, stderr io.Writer) (*session, error) {
	if !mpi.Available {
		return nil, &exitError{code: exitFailure, err: fmt.Errorf("%s: %w", cmd, mpi.ErrNoMPI)}
	}
	provided, err := mpi.Init(level)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	w := mpi.World()
	return &session{cmd: cmd, world: w, rank: w.Rank(), size: w.Size(), level: level, provided: provided, stderr: stderr,
		out: &output{start: time.Now(), runID: newRunID()}}, nil
}

// finalizePhase is MPI_Finalize under the watchdog. Every record is written
// by then, so it gets a short fixed deadline: MPICH 4.0 over UCX's TCP
// transport sometimes never returns from it (one rank spins flushing an
// endpoint while its peer waits in the PMI barrier).
var finalizePhase = watchdog.Phase{What: "MPI_Finalize", Limit: 30 * time.Second}

// close finalizes MPI, under the watchdog when it runs: MPI_Finalize can
// hang too (a peer gone, a flush that never completes).
func (s *session) close() {
	if s.dog != nil {
		s.dog.Enter(finalizePhase)
	}
	_ = mpi.Finalize()
	if s.dog != nil {
		s.dog.Stop()
	}
}

// watch starts the watchdog; budget is the benchmark's own time budget per
// size. It returns what the engines call as they move on.
func (s *session) watch(w watchFlags, budget time.Duration) func(watchdog.Phase) {
	s.dog = watchdog.New(watchdog.Config{Size: w.size, Run: w.run, Budget: budget}, s.deadline)
	s.dog.Start()
	return s.dog.Enter
}

// deadline is the watchdog's action: say what was in flight, close the
// records (rank 0; the others give it a moment, since the first rank to
// abort takes the job down), then MPI_Abort — and if even that does not
// return (the launcher cannot reach a lost host), exit all the same.
func (s *session) deadline(r watchdog.Report) {
	host, _ := os.Hostname()
	what := "watchdog: " + r.String()
	if s.rank == 0 && len(r.Phase.Ranks) > 0 {
		var hs []string
		seen := map[string]bool{}
		for _, rk := range r.Phase.Ranks {
			if rk < len(s.rankHost) && !seen[s.rankHost[rk]] {
				seen[s.rankHost[rk]] = true
				hs = append(hs, s.rankHost[rk])
			}
		}
		what += fmt.Sprintf(" (ranks %s on %s)", watchdog.Ranks(r.Phase.Ranks), strings.Join(hs, ", "))
	}
	if r.Phase.What == finalizePhase.What {
		// MPI is half torn down: MPI_Abort may be refused (MPICH: "Invalid
		// communicator"), and there is nothing left to save.
		fmt.Fprintf(s.stderr, "gomb %s: rank %d on %s: %s; every record was written before it; exiting\n", s.cmd, s.rank, host, what)
		os.Exit(exitWatchdog)
	}
	fmt.Fprintf(s.stderr, "gomb %s: rank %d on %s: %s; ending the job\n", s.cmd, s.rank, host, what)
	if s.rank == 0 {
		s.out.end(result.EndDeadline, "", what, true)
		// let the launcher forward the line above before the abort tears
		// its output channels down (hydra drops it otherwise)
		time.Sleep(500 * time.Millisecond)
	} else {
		time.Sleep(2 * time.Second)
	}
	go mpi.Abort(exitWatchdog)
	time.Sleep(5 * time.Second)
	os.Exit(exitWatchdog)
}

// fail prints err once, from rank 0, and returns an error main only turns
// into the exit status. Every rank calls it with the same error.
func (s *session) fail(err error) error {
	if s.rank == 0 || os.Getenv("GOMB_DEBUG") != "" {
		fmt.Fprintf(s.stderr, "gomb %s: %v\n", s.cmd, err)
	}
	return errReported{exitCode(err)}
}

// agree broadcasts rank 0's verdict (empty: fine) so that every rank acts
// on the same decision; make is called on rank 0 only.
func (s *session) agree(make func() string) error {
	return s.onRoot(func() error {
		if m := make(); m != "" {
			return usageErr("%s", m)
		}
		return nil
	})
}

// onRoot runs f on rank 0 and makes every rank return its outcome, with
// its exit status: a failure on rank 0 alone (a record file that cannot be
// written, a full disk) must not leave the other ranks waiting in the next
// collective while rank 0 finalizes.
func (s *session) onRoot(f func() error) error {
	var msg []byte
	if s.rank == 0 {
		if err := f(); err != nil {
			msg = append([]byte{byte(exitCode(err))}, err.Error()...)
		}
	}
	b, err := s.world.BcastBytes(msg, 0)
	if err != nil {
		return err
	}
	if len(b) > 0 {
		return &exitError{code: int(b[0]), err: errors.New(string(b[1:]))}
	}
	return nil
}

// bcastJSON sends rank 0's v to every rank (v is filled in place).
func (s *session) bcastJSON(v any) error {
	var msg []byte
	if s.rank == 0 {
		var err error
		if msg, err = json.Marshal(v); err != nil {
			return err
		}
	}
	b, err := s.world.BcastBytes(msg, 0)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// early answers -help and -list, which need no MPI, on rank 0 (or where
// the rank is unknown); it reports whether the command is done.
func early(perr error, list bool, stdout io.Writer, usage, lister func(io.Writer)) bool {
	switch {
	case errors.Is(perr, flag.ErrHelp):
		if envRank() <= 0 {
			usage(stdout)
		}
		return true
	case perr == nil && list:
		if envRank() <= 0 {
			lister(stdout)
		}
		return true
	}
	return false
}

// stopOnSignal is the signal handling of a command that can stop between
// steps (the ring): the first SIGINT or SIGTERM asks every rank to stop
// (stopping turns true; wait, the pause between steps, returns at once),
// and the ranks agree on it before the next step; a second signal ends the
// job at once, rank 0 writing an "interrupted" end record. undo restores
// the default handling.
func (s *session) stopOnSignal() (stopping func() bool, wait func(time.Duration), undo func()) {
	var stop atomic.Bool
	wake := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		stop.Store(true)
		close(wake)
		sg, ok := (<-sigs).(syscall.Signal)
		if !ok {
			return
		}
		if s.rank == 0 {
			s.out.end(result.EndInterrupted, sg.String(), "", true)
		}
		os.Exit(128 + int(sg))
	}()
	wait = func(d time.Duration) {
		select {
		case <-time.After(d):
		case <-wake:
		}
	}
	return stop.Load, wait, func() { signal.Stop(sigs) }
}

// onSignal makes SIGINT and SIGTERM (which launchers forward to every rank)
// end the job with valid records: rank 0 writes an "interrupted" end record
// and flushes the text; the other ranks give it a moment, because launchers
// kill the whole job as soon as one rank is gone; then every rank dies of
// the signal it got, so the launcher reports it as such. stop undoes it.
func (s *session) onSignal() (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sg, ok := (<-sigs).(syscall.Signal)
		if !ok {
			return
		}
		if s.rank == 0 {
			s.out.end(result.EndInterrupted, sg.String(), "", true)
			fmt.Fprintf(s.stderr, "gomb %s: stopped by %v; records written so far are complete\n", s.cmd, sg)
		} else {
			time.Sleep(250 * time.Millisecond)
		}
		signal.Reset(sg)
		_ = syscall.Kill(os.Getpid(), sg)
		time.Sleep(time.Second)
		os.Exit(128 + int(sg))
	}()
	return func() { signal.Stop(sigs) }
}

// measure runs a sweep with the garbage collector off (nothing may stop
// the world while a C loop is timing; the engines collect between sizes),
// then, on rank 0, writes footer and the end record, and turns validation
// failures on any rank into exit status 3 with the message failMsg (a
// format with one %d). An error during the sweep aborts the job.
func (s *session) measure(sweep func() (failed int, err error), footer func() error, failMsg string) error {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	failed, err := sweep()
	debug.SetGCPercent(100)
	runtime.GC()
	if err != nil {
		return s.abort(err)
	}
	if err := s.onRoot(func() error {
		status := result.EndComplete
		if failed > 0 {
			status = result.EndCheckFailed
		}
		ferr := error(nil)
		if footer != nil {
			ferr = footer()
		}
		if err := s.out.end(status, "", "", false); err != nil {
			return err
		}
		return ferr
	}); err != nil {
		return s.fail(err)
	}
	if failed, err = s.world.MaxInt(failed); err != nil {
		return s.fail(err)
	}
	if failed > 0 {
		return s.fail(&exitError{code: exitCheckFailed, err: fmt.Errorf(failMsg, failed)})
	}
	return nil
}

// abort reports an error during measurement from whichever rank met it,
// closes the records on rank 0, and ends the whole job: a rank that stops
// cannot leave the others inside a collective.
func (s *session) abort(err error) error {
	fmt.Fprintf(s.stderr, "gomb %s: rank %d: %v\n", s.cmd, s.rank, err)
	if s.rank == 0 {
		s.out.end(result.EndFailed, "", err.Error(), false)
	}
	// as the watchdog: let the launcher forward the line before the abort
	// tears its output channels down (hydra drops it otherwise)
	time.Sleep(500 * time.Millisecond)
	mpi.Abort(exitFailure)
	return errReported{exitFailure}
}
