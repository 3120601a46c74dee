// Package session is what gomb's measuring commands (the IMB suites, osu,
// ring) share while they run under an MPI launcher:
//
//  1. Run answers -help and -list on rank 0 without MPI, starts MPI, has
//     every rank agree that it runs the same gomb with the same arguments
//     (agree.go) before any other collective, reports a bad command line
//     from rank 0 alone (every rank finalizes), reads
//     GOMB_FAULT once, hands the command its Session, and finalizes MPI
//     under the watchdog;
//  2. Open opens the records (the -json file, the archive) and writes the
//     run record built from every rank's provenance (provenance.go);
//  3. OnSignal or StopOnSignal keep the records valid when the job is
//     stopped, Watch starts the watchdog, Progress draws a status line;
//  4. Measure runs a Sweep with the collector off and closes the records
//     with an end record; Abort ends the whole job after an error.
//
// internal/measure puts these steps in their order for a suite; the
// session knows no suite.
//
// Rank 0 writes every record and all text; the ranks agree on every
// decision (Agree, OnRoot) so that none is left waiting in a collective.
package session

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
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Command is a measuring command as Run runs it.
type Command struct {
	Name  string             // "imb", "osu", "ring": prefixes error lines
	Suite string             // the suite of its run records
	Level kernel.ThreadLevel // MPI_Init_thread's level (kernel.NoThreadInit: MPI_Init)
	// Session starts MPI through an MPI-4 session instead of MPI_Init
	// (OSU's -I); the world is the session's communicator.
	Session bool
	Version string          // gomb's, for the run record
	Args    []string        // the command's arguments, for the run record
	Flags   *Flags          // where its records go, the watchdog, progress
	Help    func(io.Writer) // writes -help
	List    func(io.Writer) // writes -list (nil: the command has none)
	Listing bool            // -list was given
}

// Session is one measuring command running under MPI.
type Session struct {
	Rank, Size int
	World      mpi.Comm
	// Fault is what GOMB_FAULT asks for (nil: nothing); the engines take
	// it.
	Fault *bench.Fault

	cmd      *Command
	provided kernel.ThreadLevel
	initTook time.Duration // this rank's MPI_Init (osu init reports it)
	stderr   io.Writer
	out      *output
	dog      *watchdog.Dog // ends the job when a deadline passes (nil: not watching)
	rankHost []string      // each rank's host, on rank 0
	// agreeComm is Contain's communicator (a null Comm without one), and
	// contained the benchmarks an MPI error ended on every rank.
	agreeComm mpi.Comm
	contained []string

	exitMu sync.Mutex
	atExit []func() // AtExit's, not run yet
}

// AtExit has f run on this rank if the job ends early (an error, the
// watchdog, a signal): what a command must undo even then (IMB-IO's
// temporary directory). The command undoes it itself on a normal end.
func (s *Session) AtExit(f func()) {
	s.exitMu.Lock()
	defer s.exitMu.Unlock()
	s.atExit = append(s.atExit, f)
}

// ClearAtExit drops what AtExit registered: the command has undone it.
func (s *Session) ClearAtExit() {
	s.exitMu.Lock()
	defer s.exitMu.Unlock()
	s.atExit = nil
}

func (s *Session) runAtExit() {
	s.exitMu.Lock()
	fs := s.atExit
	s.atExit = nil
	s.exitMu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Run is what every measuring command shares around its work (measure.Run
// calls it): MPI starts (under a watchdog of its own), the ranks agree on
// their command line, -help and -list (perr is flag.ErrHelp, or
// c.Listing) are answered by rank 0, a parse error perr is reported from
// rank 0 alone, and measure runs with the session; MPI is finalized after
// it, under the watchdog. A command run alone (no launcher, or one process)
// answers -help and -list without MPI.
func Run(c *Command, perr error, stdout, stderr io.Writer, measure func(*Session) error) error {
	var answer func(io.Writer)
	switch {
	case errors.Is(perr, flag.ErrHelp):
		answer, perr = c.Help, nil
	case perr == nil && c.Listing && c.List != nil:
		answer = c.List
	}
	if n, _ := launched(); answer != nil && n <= 1 {
		return cli.Print(stdout, answer)
	}
	s, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	if perr != nil {
		return s.Fail(perr)
	}
	if answer != nil {
		// every rank agreed on -help or -list: rank 0 answers
		if err := s.OnRoot(func() error { return cli.Print(stdout, answer) }); err != nil {
			return s.Fail(err)
		}
		return nil
	}
	if s.Fault, err = bench.FaultFromEnv(); err != nil {
		return s.Fail(cli.Usage("%v", err))
	}
	if s.Fault != nil && s.Fault.Corrupt {
		mpi.SetFaultCorrupt(true)
	}
	if s.Fault.CrashHere(s.Rank) {
		mpi.InjectCrash()
	}
	return measure(s)
}

// start initialises MPI and has the ranks agree on their command line,
// both under a watchdog of their own (startDog). Errors before MPI runs
// come from every rank (there is no rank yet); everything after goes
// through Fail.
func start(c *Command, stderr io.Writer) (*Session, error) {
	if !mpi.Available {
		return nil, &cli.ExitError{Code: cli.ExitFailure, Err: fmt.Errorf("%s: %w", c.Name, mpi.ErrNoMPI)}
	}
	if why := srunWithoutPMI(); why != "" {
		// Before MPI_Init: Open MPI started without the PMI it reads
		// aborts inside it with a page of text from every rank.
		if EnvRank() > 0 {
			waitRank0()
		} else {
			fmt.Fprintf(stderr, "gomb %s: %s\n", c.Name, why)
		}
		return nil, cli.Reported{Code: cli.ExitUsage}
	}
	dog := startDog(c, stderr)
	t0 := time.Now()
	provided, err := kernel.NoThreadInit, error(nil)
	if c.Session {
		err = mpi.InitSession()
	} else {
		provided, err = mpi.Init(c.Level)
	}
	initTook := time.Since(t0)
	if err != nil {
		dog.Stop()
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	w := mpi.World()
	if n, by := launched(); w.Size() == 1 && n > 1 {
		dog.Stop()
		return nil, wrongLauncher(c, stderr, n, by)
	}
	s := &Session{cmd: c, World: w, Rank: w.Rank(), Size: w.Size(), provided: provided, initTook: initTook, stderr: stderr,
		out: &output{start: time.Now(), runID: newRunID()}}
	if err := s.agreeOnStart(dog); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// wrongLauncher refuses a job whose every process is rank 0 of a world
// of its own: the launcher's MPI is not this binary's. The launcher's rank
// 0 says so; the others leave after it (waitRank0), since a launcher ends
// the whole job when the first process exits with an error, and took rank
// 0's line with it in 5 of 20 jobs of 4 ranks on a loaded machine.
func wrongLauncher(c *Command, stderr io.Writer, n int, by string) error {
	if EnvRank() > 0 {
		_ = mpi.Finalize()
		waitRank0()
		return cli.Reported{Code: cli.ExitUsage}
	}
	if plugin, ok := srunStarted(); ok {
		fmt.Fprintf(stderr, "gomb %s: srun started %d tasks with --mpi=%s but MPI sees each alone: %s\n",
			c.Name, n, plugin, srunAdvice())
	} else {
		fmt.Fprintf(stderr, "gomb %s: the launcher started %d processes (%s) but MPI sees each alone: this gomb is built for %s and the launcher is another MPI's; use %s\n",
			c.Name, n, by, libraryName(), otherBuild())
	}
	_ = mpi.Finalize()
	return cli.Reported{Code: cli.ExitUsage}
}

// waitRank0 waits until the launcher's rank 0 ended, when it runs on this
// host (10 s at most), or else 2 s: what rank 0 says must reach the
// launcher before another rank's exit ends the job.
func waitRank0() {
	pid := rank0Beside()
	if pid <= 0 {
		time.Sleep(2 * time.Second)
		return
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
}

// MPIBuild describes the MPI library this binary measures with, one
// "name: value" line each: the family and header it was compiled against,
// the library it runs with (MPI_Get_library_version, which MPI allows
// before MPI_Init, so no launcher is needed), and the features compiled in.
// A build without cgo runs the analysis commands only.
func MPIBuild() string {
	if !mpi.Available {
		return "MPI build: none (built without cgo: analysis commands only)\n"
	}
	b := mpi.BuildInfo()
	var w strings.Builder
	fmt.Fprintf(&w, "MPI build: %s (compiled against %s's mpi.h, MPI %s)\n", b.Family, b.Header, b.Standard)
	if lib, err := mpi.LibraryVersion(); err == nil {
		first, _, _ := strings.Cut(strings.TrimSpace(lib), "\n")
		fmt.Fprintf(&w, "MPI library: %s (%s)\n", mpi.Identify(lib), strings.TrimSpace(first))
	}
	features := "none beyond MPI-3.1"
	if len(b.Features) > 0 {
		features = strings.Join(b.Features, " ")
	}
	fmt.Fprintf(&w, "MPI features: %s\n", features)
	return w.String()
}

// InitTook is how long this rank's MPI_Init (or MPI_Init_thread) took, on
// the wall clock, as osu_init times it.
func (s *Session) InitTook() time.Duration { return s.initTook }

// Provided is the thread support MPI_Init_thread gave.
func (s *Session) Provided() kernel.ThreadLevel { return s.provided }

// RunID is the id of the run's records.
func (s *Session) RunID() string { return s.out.runID }

// finalizeWhat names MPI_Finalize's phase under the watchdog.
const finalizeWhat = "MPI_Finalize"

// finalizeLimit is MPI_Finalize's deadline: 2 s plus ten times what this
// rank's MPI_Init took, at most 30 s. Every record is written by then, and
// both calls wait for every process through the launcher's PMI, so a job
// whose start-up was slow (many nodes, a slow PMI) gets longer. MPICH 4.0
// over UCX's TCP transport sometimes never returns from it (one rank
// spins flushing an endpoint while its peer waits in the PMI barrier):
// that costs 2-5 s here, not 30.
func finalizeLimit(initTook time.Duration) time.Duration {
	return min(30*time.Second, 2*time.Second+10*initTook)
}

// close finalizes MPI, under the watchdog when it runs: MPI_Finalize can
// hang too (a peer gone, a flush that never completes).
func (s *Session) close() {
	if s.dog != nil {
		s.dog.Enter(watchdog.Phase{What: finalizeWhat, Limit: finalizeLimit(s.initTook)})
	}
	s.agreeComm.Free()
	_ = mpi.Finalize()
	if s.dog != nil {
		s.dog.Stop()
	}
}

// Watch starts the watchdog with the -watchdog and -deadline flags; budget
// is the benchmark's own time budget per size. It returns what the engines
// call as they move on.
func (s *Session) Watch(budget time.Duration) func(watchdog.Phase) {
	w := s.cmd.Flags.watch
	s.dog = watchdog.New(watchdog.Config{Size: w.size, Run: w.run, Budget: budget}, s.deadline)
	s.dog.Start()
	return s.dog.Enter
}

// Note says what this rank does within the watchdog's phase now running,
// for its report if the deadline passes (watchdog.Dog.Note).
func (s *Session) Note(p watchdog.Phase) {
	if s.dog != nil {
		s.dog.Note(p)
	}
}

// deadline is the watchdog's action: say what was in flight, close the
// records (rank 0; the others give it a moment, since the first rank to
// abort takes the job down), then MPI_Abort — and if even that does not
// return (the launcher cannot reach a lost host), exit all the same.
func (s *Session) deadline(r watchdog.Report) {
	host, _ := os.Hostname()
	what := "watchdog: " + r.String()
	if s.Rank == 0 && len(r.Phase.Ranks) > 0 {
		what += fmt.Sprintf(" (ranks %s on %s)", watchdog.Ranks(r.Phase.Ranks), hostsOf(s.rankHost, r.Phase.Ranks))
	}
	if r.Phase.What == finalizeWhat {
		// MPI is half torn down: MPI_Abort may be refused (MPICH: "Invalid
		// communicator"), and there is nothing left to save.
		fmt.Fprintf(s.stderr, "gomb %s: rank %d on %s: %s; every record was written before it; exiting\n", s.cmd.Name, s.Rank, host, what)
		os.Exit(cli.ExitWatchdog)
	}
	fmt.Fprintf(s.stderr, "gomb %s: rank %d on %s: %s; ending the job\n", s.cmd.Name, s.Rank, host, what)
	s.runAtExit()
	if s.Rank == 0 {
		s.out.end(result.EndDeadline, "", what, nil, true)
		// let the launcher forward the line above before the abort tears
		// its output channels down (hydra drops it otherwise)
		time.Sleep(500 * time.Millisecond)
	} else {
		time.Sleep(2 * time.Second)
	}
	go mpi.Abort(cli.ExitWatchdog)
	time.Sleep(5 * time.Second)
	os.Exit(cli.ExitWatchdog)
}

// Fail prints err once, from rank 0, and returns an error main only turns
// into the exit status. Every rank calls it with the same error.
func (s *Session) Fail(err error) error {
	if s.Rank == 0 || os.Getenv("GOMB_DEBUG") != "" {
		fmt.Fprintf(s.stderr, "gomb %s: %v\n", s.cmd.Name, err)
	}
	return cli.Reported{Code: cli.Code(err)}
}

// Agree broadcasts rank 0's verdict (empty: fine) so that every rank acts
// on the same decision, a usage error; verdict is called on rank 0 only.
func (s *Session) Agree(verdict func() string) error {
	return s.OnRoot(func() error {
		if m := verdict(); m != "" {
			return cli.Usage("%s", m)
		}
		return nil
	})
}

// OnRoot runs f on rank 0 and makes every rank return its outcome, with
// its exit status: a failure on rank 0 alone (a record file that cannot be
// written, a full disk) must not leave the other ranks waiting in the next
// collective while rank 0 finalizes.
func (s *Session) OnRoot(f func() error) error {
	var msg []byte
	if s.Rank == 0 {
		if err := f(); err != nil {
			msg = append([]byte{byte(cli.Code(err))}, err.Error()...)
		}
	}
	b, err := s.World.BcastBytes(msg, 0)
	if err != nil {
		return err
	}
	if len(b) > 0 {
		return &cli.ExitError{Code: int(b[0]), Err: errors.New(string(b[1:]))}
	}
	return nil
}

// BcastJSON sends rank 0's v to every rank (v is filled in place).
func (s *Session) BcastJSON(v any) error {
	var msg []byte
	if s.Rank == 0 {
		var err error
		if msg, err = json.Marshal(v); err != nil {
			return err
		}
	}
	b, err := s.World.BcastBytes(msg, 0)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// StopOnSignal is the signal handling of a command that can stop between
// steps (the ring): the first SIGINT or SIGTERM asks every rank to stop
// (stopping turns true; wait, the pause between steps, returns at once),
// and the ranks agree on it before the next step; a second signal ends the
// job at once, rank 0 writing an "interrupted" end record. undo restores
// the default handling.
func (s *Session) StopOnSignal() (stopping func() bool, wait func(time.Duration), undo func()) {
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
		if s.Rank == 0 {
			s.out.end(result.EndInterrupted, sg.String(), "", nil, true)
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

// OnSignal makes SIGINT and SIGTERM (which launchers forward to every rank)
// end the job with valid records: rank 0 writes an "interrupted" end record
// and flushes the text; the other ranks give it a moment, because launchers
// kill the whole job as soon as one rank is gone; then every rank dies of
// the signal it got, so the launcher reports it as such. A rank signalled
// alone (kill of one rank's PID) passes the signal on to rank 0 when rank 0
// runs on its host: MPICH's launcher kills the other ranks outright when
// one ends. Once signalled, a rank's standard error goes to /dev/null,
// rank 0's after its line: a rank still inside MPI when its peer is gone
// meets the MPI library's fatal-error report (UCX prints a backtrace),
// which is no news after a Ctrl-C. stop undoes it.
func (s *Session) OnSignal() (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sg, ok := (<-sigs).(syscall.Signal)
		if !ok {
			return
		}
		if s.Rank == 0 {
			// the end record first: under srun's second Ctrl-C a SIGKILL
			// follows the SIGINT within 3-15 ms (docs/slurm.md)
			s.out.end(result.EndInterrupted, sg.String(), "", nil, true)
			s.runAtExit()
			fmt.Fprintf(s.stderr, "gomb %s: stopped by %v; records written so far are complete\n", s.cmd.Name, sg)
			quietStderr()
			// The other ranks got the signal too and silence their stderr
			// first thing; a rank whose handler has not run yet when this
			// one dies would print its MPI library's backtrace (MPICH over
			// UCX reading a vanished peer's memory). Give them time.
			time.Sleep(250 * time.Millisecond)
		} else {
			quietStderr()
			if pid := rank0Beside(); pid > 0 {
				_ = syscall.Kill(pid, sg)
			}
			s.runAtExit()
			time.Sleep(250 * time.Millisecond)
		}
		signal.Reset(sg)
		_ = syscall.Kill(os.Getpid(), sg)
		time.Sleep(time.Second)
		os.Exit(128 + int(sg))
	}()
	return func() { signal.Stop(sigs) }
}

// A Sweep is what Measure runs: the measurement, rank 0's text after it,
// and how the records end.
type Sweep struct {
	// Run measures; failed counts the rows that failed validation.
	Run func() (failed int, err error)
	// Footer is rank 0's text after the sweep (nil: none).
	Footer func() error
	// FailMsg is the exit message when rows failed validation: a format
	// with one %d.
	FailMsg string
	// End, when set, gives the end record's status and summary (a monitor
	// stopped by a signal ends "interrupted"); otherwise the end is
	// "complete", or "check_failed" when rows failed validation.
	End func() (status string, summary any)
}

// Measure runs a sweep with the garbage collector off (nothing may stop
// the world while a C loop is timing; the engines collect between sizes),
// then, on rank 0, writes the footer and the end record, and turns
// validation failures on any rank into exit status 3 with the sweep's
// FailMsg. An error during the sweep aborts the job.
func (s *Session) Measure(sw Sweep) error {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	failed, err := sw.Run()
	debug.SetGCPercent(100)
	runtime.GC()
	if err != nil {
		return s.Abort(err)
	}
	if err := s.OnRoot(func() error {
		status, summary := result.EndComplete, any(nil)
		switch {
		case sw.End != nil:
			status, summary = sw.End()
		case failed > 0:
			status = result.EndCheckFailed
		}
		ferr := error(nil)
		if sw.Footer != nil {
			ferr = sw.Footer()
		}
		if err := s.out.end(status, "", "", summary, false); err != nil {
			return err
		}
		return ferr
	}); err != nil {
		return s.Fail(err)
	}
	if failed, err = s.World.MaxInt(failed); err != nil {
		return s.Fail(err)
	}
	if failed > 0 {
		return s.Fail(&cli.ExitError{Code: cli.ExitCheckFailed, Err: fmt.Errorf(sw.FailMsg, failed)})
	}
	return nil
}

// Abort reports an error during measurement from whichever rank met it,
// closes the records on rank 0, and ends the whole job: a rank that stops
// cannot leave the others inside a collective.
func (s *Session) Abort(err error) error {
	fmt.Fprintf(s.stderr, "gomb %s: rank %d: %v\n", s.cmd.Name, s.Rank, err)
	s.runAtExit()
	if s.Rank == 0 {
		s.out.end(result.EndFailed, "", err.Error(), nil, false)
	}
	// as the watchdog: let the launcher forward the line before the abort
	// tears its output channels down (hydra drops it otherwise)
	time.Sleep(500 * time.Millisecond)
	mpi.Abort(cli.ExitFailure)
	return cli.Reported{Code: cli.ExitFailure}
}
