// Package measure is the skeleton of a measuring command once its command
// line is parsed: inside a session (internal/session) it
//
//  1. has the suite prepare on every rank: resolve and broadcast the plan,
//     refuse what cannot run, per-rank set-up (a directory, a thread team,
//     a baseline) — before any record is written;
//  2. opens the records and rank 0's text writer, with the run record
//     built from every rank's provenance and the suite's options;
//  3. keeps the records valid on SIGINT and SIGTERM (a monitor instead
//     stops between samples);
//  4. has the suite start its engine: the watchdog, and on rank 0 the
//     preamble, the sink of rows and the progress line;
//  5. runs the sweep with the collector off, then the footer and the end
//     record, and the suite's own verdict (the exit status); a job of
//     several benchmarks that an MPI error ended some of on every rank
//     (session.Session.Contain) ends with exit status 6.
//
// A suite's folder under internal/measure (imbjob, osujob, mtjob, p2pjob,
// ringjob) holds only what differs: its Suite. cmd/gomb keeps the flags,
// the help and the wiring.
package measure

import (
	"io"
	"time"

	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
)

// A Suite is what one suite adds to the skeleton; W is rank 0's text
// writer, the suite's table layout.
type Suite[W session.Flusher] interface {
	// Prepare runs on every rank once MPI runs, before the records open.
	// It returns the options the run record keeps. An error ends the job
	// with one line from rank 0 (cli.Usage's: exit status 2).
	Prepare(s *session.Session) (options any, err error)
	// Text makes rank 0's text writer over out.
	Text(out io.Writer) W
	// Start, with the records open, makes and wires the engine.
	Start(e *Env[W]) (*Job, error)
}

// A Monitor is a Suite that runs until it is told to stop: a signal
// makes Env.Stopping true, and the records end "interrupted" by its Job's
// End, rather than the job dying of the signal.
type Monitor interface {
	Monitor()
}

// Env is what a suite's Start gets.
type Env[W any] struct {
	*session.Session
	Text  W
	Run   *result.Run // the run record: rank 0's, nil elsewhere
	Hosts []string    // each rank's host: rank 0's, nil elsewhere
	// Stopping and Wait, for a Monitor: whether the ranks agreed to stop
	// on a signal, and a sleep that a signal cuts short.
	Stopping func() bool
	Wait     func(time.Duration)
}

// A Job is a suite's started engine.
type Job struct {
	session.Sweep
	// Then runs on every rank after a sweep that ended well and its end
	// record: the suite's own verdict (an exit status of its own).
	Then func() error
}

// Run runs suite inside a session of command c: -help, -list and a
// command line that did not parse (perr) are answered as session.Run
// answers them.
func Run[W session.Flusher](c *session.Command, perr error, stdout, stderr io.Writer, suite Suite[W]) error {
	return session.Run(c, perr, stdout, stderr, func(s *session.Session) error {
		options, err := suite.Prepare(s)
		if err != nil {
			return s.Fail(err)
		}
		text, run, err := session.Open(s, options, stdout, suite.Text)
		if err != nil {
			return s.Fail(err)
		}
		e := &Env[W]{Session: s, Text: text, Run: run}
		if run != nil {
			e.Hosts = session.Hosts(run)
		}
		if _, ok := suite.(Monitor); ok {
			stopping, wait, undo := s.StopOnSignal()
			defer undo()
			e.Stopping, e.Wait = stopping, wait
		} else {
			defer s.OnSignal()()
		}
		job, err := suite.Start(e)
		if err != nil {
			return s.Fail(err)
		}
		if err := s.Measure(job.Sweep); err != nil {
			return err
		}
		if job.Then != nil {
			if err := job.Then(); err != nil {
				return s.Fail(err)
			}
		}
		if err := s.Contained(); err != nil {
			return s.Fail(err)
		}
		return nil
	})
}

// Preamble has rank 0 write its text before the first table; every rank
// agrees on whether that worked.
func (e *Env[W]) Preamble(write func(W) error) error {
	return e.OnRoot(func() error { return write(e.Text) })
}

// Hosts is every rank's host (MPI_Get_processor_name), rank 0's view of
// them on every rank: what a suite that groups its ranks into nodes
// (gomb fleet, gomb congestion) plans by.
func Hosts(s *session.Session) ([]string, error) {
	name, err := mpi.ProcessorName()
	if err != nil {
		return nil, err
	}
	names, err := s.World.GathervBytes([]byte(name), 0)
	if err != nil {
		return nil, err
	}
	var hosts []string
	if s.Rank == 0 {
		for _, n := range names {
			hosts = append(hosts, string(n))
		}
	}
	err = s.BcastJSON(&hosts)
	return hosts, err
}
