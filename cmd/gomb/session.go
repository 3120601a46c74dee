package main

// What the measuring commands (imb, osu, ring) share: MPI start-up and
// shutdown, one error line from rank 0, the record stream and its end
// record, provenance, and the signal handling that keeps records valid.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/archive"
	"github.com/gomb-hpc/gomb/mpi"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/watchdog"
)

// envRank guesses the world rank before MPI_Init from the launcher's
// environment; -1 if unknown.
func envRank() int {
	return envInt("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")
}

// envLocalRank is the rank among the processes of this host, for picking a
// GPU; -1 if unknown.
func envLocalRank() int {
	return envInt("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MPI_LOCAL_RANK", "SLURM_LOCALID")
}

func envInt(keys ...string) int {
	for _, k := range keys {
		if v := os.Getenv(k); v != "" {
			var r int
			if _, err := fmt.Sscan(v, &r); err == nil {
				return r
			}
		}
	}
	return -1
}

// newRunID returns 16 random hex digits.
func newRunID() string { return fmt.Sprintf("%016x", rand.Uint64()) }

// session is one measuring command running under MPI.
type session struct {
	cmd      string // "imb", "osu", "ring": prefixes error lines
	world    mpi.Comm
	rank     int
	size     int
	level    mpi.ThreadLevel // asked for (NoThreadInit: MPI_Init)
	provided mpi.ThreadLevel
	stderr   io.Writer
	out      *output
	labels   map[string]string // the run's labels (-system, -config, -label)
	dog      *watchdog.Dog     // ends the job when a deadline passes (nil: not watching)
	rankHost []string          // each rank's host, on rank 0
}

// startSession initialises MPI. Errors before MPI runs come from every rank
// (there is no rank yet); everything after goes through fail.
func startSession(cmd string, level mpi.ThreadLevel, stderr io.Writer) (*session, error) {
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

// recordFlags are where the measuring commands keep their records: a JSON
// Lines file, the archive, and the labels of the run.
type recordFlags struct {
	jsonPath string
	archive  archiveFlag
	labelFlags
}

func (r *recordFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.jsonPath, "json", "", "")
	fs.StringVar(&r.jsonPath, "o", "", "")
	fs.Var(&r.archive, "archive", "")
	r.labelFlags.register(fs)
}

// archiveFlag is -archive (the default archive) or -archive=PATH.
type archiveFlag struct {
	on   bool
	path string
}

func (a *archiveFlag) IsBoolFlag() bool { return true }
func (a *archiveFlag) String() string   { return a.path }
func (a *archiveFlag) Set(s string) error {
	switch s {
	case "true":
		a.on, a.path = true, ""
	case "false":
		a.on, a.path = false, ""
	case "":
		return errors.New("empty archive path")
	default:
		a.on, a.path = true, s
	}
	return nil
}

// archiveHelp describes -archive and the labels in a command's usage.
const archiveHelp = `  -archive[=PATH]       add the run to the archive when it ends (default
                        $GOMB_ARCHIVE, else ~/.local/share/gomb/archive.db)
  -system S, -config C, -label K=V
                        label the run, in the records and the archive
`

// openRecords opens the record file on rank 0 (path "" for none, "-" for
// stdout) and the archive when asked, and returns where rank 0's text
// should go: stdout, or stderr when the records take stdout.
func (s *session) openRecords(rf *recordFlags, stdout, stderr io.Writer) (io.Writer, error) {
	text := stdout
	s.labels = rf.labels
	err := s.agree(func() string {
		if rf.archive.on {
			path := rf.archive.path
			if path == "" {
				p, err := archive.DefaultPath()
				if err != nil {
					return err.Error()
				}
				path = p
			}
			db, err := archive.Open(path)
			if err != nil {
				return fmt.Sprintf("-archive: %v", err)
			}
			s.out.db, s.out.keep, s.out.note = db, &result.Bundle{}, stderr
		}
		switch path := rf.jsonPath; path {
		case "":
		case "-":
			s.out.enc = result.NewEncoder(stdout)
			text = stderr
		default:
			f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				return fmt.Sprintf("-json: %v", err)
			}
			s.out.file, s.out.enc = f, result.NewEncoder(f)
		}
		return ""
	})
	return text, err
}

// provenance gathers every rank's host, binding, CPU and kernel to rank 0
// and builds the run record there (nil elsewhere).
func (s *session) provenance(suite string, args []string, options any) (*result.Run, error) {
	host, err := mpi.ProcessorName()
	if err != nil || host == "" {
		host, _ = os.Hostname()
	}
	mine, _ := json.Marshal(result.LocalRank(s.rank, host))
	all, err := s.world.GathervBytes(mine, 0)
	if err != nil {
		return nil, err
	}
	var run *result.Run
	err = s.onRoot(func() (err error) {
		run, err = s.runRecord(suite, args, options, all)
		return err
	})
	return run, err
}

// runRecord builds the run record from every rank's provenance and writes
// it (rank 0).
func (s *session) runRecord(suite string, args []string, options any, all [][]byte) (*result.Run, error) {
	lib, err := mpi.LibraryVersion()
	if err != nil {
		return nil, err
	}
	ma, mi, err := mpi.StandardVersion()
	if err != nil {
		return nil, err
	}
	run := &result.Run{
		RunID:     s.out.runID,
		Tool:      result.Tool{Name: "gomb", Version: fullVersion(), GoVersion: runtime.Version()},
		Suite:     suite,
		Command:   append([]string{os.Args[0], s.cmd}, args...),
		Start:     s.out.start,
		MPI:       result.MPI{Impl: mpi.Impl, Library: strings.TrimSpace(lib), Standard: fmt.Sprintf("%d.%d", ma, mi), Thread: s.provided.String(), Init: s.level.InitCall()},
		WorldSize: s.size,
		Env:       result.Env(os.Environ()),
		Options:   options,
		Labels:    s.labels,
	}
	seen := map[string]bool{}
	for i, b := range all {
		var r result.Rank
		if err := json.Unmarshal(bytes.TrimSpace(b), &r); err != nil {
			return nil, fmt.Errorf("provenance of rank %d: %v", i, err)
		}
		run.Ranks = append(run.Ranks, r)
		s.rankHost = append(s.rankHost, r.Host)
		if !seen[r.Host] {
			seen[r.Host] = true
			run.Hosts = append(run.Hosts, r.Host)
		}
	}
	if s.out.enc != nil {
		if err := s.out.enc.Run(run); err != nil {
			return nil, fmt.Errorf("-json: %w", err)
		}
	}
	if s.out.keep != nil {
		s.out.keep.Run = run
	}
	return run, nil
}

// openDevice loads the CUDA runtime on the ranks that want a GPU and makes
// every rank agree on the outcome: the first rank's error, named by flag,
// fails them all. It returns this rank's device (nil where not wanted).
func (s *session) openDevice(flag string, want bool) (*mpi.Device, error) {
	var dev *mpi.Device
	msg := ""
	if want {
		lr := envLocalRank()
		if lr < 0 {
			lr = s.rank
		}
		var err error
		if dev, err = mpi.OpenCUDA(lr); err != nil {
			msg = fmt.Sprintf("%s: rank %d: %v", flag, s.rank, err)
		}
	}
	all, err := s.world.GathervBytes([]byte(msg), 0)
	if err != nil {
		return nil, err
	}
	return dev, s.agree(func() string {
		for _, m := range all {
			if len(m) > 0 {
				return string(m)
			}
		}
		return ""
	})
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

// hosts lists the host of every rank of a run record.
func hosts(run *result.Run) []string {
	var h []string
	for _, r := range run.Ranks {
		h = append(h, r.Host)
	}
	return h
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

// output is rank 0's record stream and text behind one lock, so that a
// signal can end both cleanly while the main goroutine is writing.
type output struct {
	mu    sync.Mutex
	enc   *result.Encoder // nil without -json
	file  *os.File
	db    *archive.DB    // -archive: the run goes here when it ends
	keep  *result.Bundle // -archive: the run's records so far
	note  io.Writer      // where to say the run was archived
	flush func() error   // the text writer's
	start time.Time
	runID string
	prog  *progress
	ended bool // the end record is written
}

// locked runs f with the lock held.
func (o *output) locked(f func() error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return f()
}

// result writes a result record, then lets text render it.
func (o *output) result(r *result.Result, text func(*result.Result) error) error {
	return o.locked(func() error {
		if o.enc != nil {
			if err := o.enc.Result(r); err != nil {
				return err
			}
		}
		if o.keep != nil {
			o.keep.Results = append(o.keep.Results, r)
		}
		return text(r)
	})
}

// end writes the end record and closes the stream; it keeps the lock when
// keep is set (the process is about to exit on a signal). It reports the
// first error of writing, syncing or closing the record file.
func (o *output) end(status, sig, msg string, keep bool) error {
	return o.endWith(status, sig, msg, nil, keep)
}

// endWith is end with a summary in the end record.
func (o *output) endWith(status, sig, msg string, summary any, keep bool) (err error) {
	o.mu.Lock()
	if !keep {
		defer o.mu.Unlock()
	}
	if o.ended { // a signal or the watchdog after the run's own end
		return nil
	}
	o.ended = true
	o.prog.finish()
	end := &result.End{RunID: o.runID, Status: status, Signal: sig, Message: msg, Summary: summary,
		Time: time.Now(), ElapsedS: time.Since(o.start).Seconds()}
	keepErr := func(e error) {
		if e != nil && err == nil {
			err = fmt.Errorf("-json: %w", e)
		}
	}
	if o.enc != nil {
		keepErr(o.enc.End(end))
	}
	if o.db != nil && o.keep != nil && o.keep.Run != nil {
		// One transaction: an interrupted add leaves the archive as it was.
		e := *end
		e.Type, e.Schema, e.Results = result.TypeEnd, result.Schema, len(o.keep.Results)
		o.keep.End = &e
		if id, _, err := o.db.Add(o.keep); err != nil {
			fmt.Fprintf(o.note, "gomb: -archive: %v\n", err)
		} else {
			fmt.Fprintf(o.note, "gomb: run added to %s as run %d\n", o.db.Path, id)
		}
		o.db.Close()
		o.db = nil
	}
	if o.file != nil {
		if !keep { // on a signal, every millisecond counts: the page cache suffices
			if e := o.file.Sync(); !errors.Is(e, syscall.EINVAL) && !errors.Is(e, syscall.ENOTSUP) {
				keepErr(e) // a pipe or device cannot be synced: nothing lost
			}
		}
		keepErr(o.file.Close())
		o.file = nil
	}
	if o.flush != nil {
		if e := o.flush(); e != nil && err == nil {
			err = e
		}
	}
	return err
}
