package session

// Where a measuring command's results go: the record file (-json), the
// archive (-archive) and rank 0's text, behind one lock (output); and the
// flags that say so, with the watchdog's and -progress.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
	"golang.org/x/sys/unix"
)

// Flags are what every measuring command takes beside its suite's flags:
// where its records go (-json, -archive, the labels), the watchdog's
// deadlines and -progress.
type Flags struct {
	JSON     string
	Archive  ArchiveFlag
	Labels   cli.Labels
	Progress bool
	watch    watchFlags
}

// Register adds the flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	const json = "`FILE` write JSON Lines records (a run record, one per result, an end record); '-' is stdout, and the table then goes to stderr"
	fs.StringVar(&f.JSON, "json", "", json)
	fs.StringVar(&f.JSON, "o", "", json)
	fs.Var(&f.Archive, "archive", "`[=PATH|URL]` add the run to the archive (an SQLite file or a postgres:// URL) when it ends (default $GOMB_ARCHIVE, else ~/.local/share/gomb/archive.db)")
	f.Labels.Register(fs)
	f.watch.register(fs)
	fs.BoolVar(&f.Progress, "progress", false, "a progress line on stderr (shown by itself when stderr is a terminal and the table is not; launchers hand ranks a pipe, so under mpirun ask for it)")
}

// Outputs are the files the flags say the run writes: the -json file and
// the archive (resolved to the default one for -archive alone).
func (f *Flags) Outputs() []cli.Named {
	out := []cli.Named{{Flag: "-json", Path: f.JSON}}
	if f.Archive.On {
		if p, err := archive.Resolve(f.Archive.Path); err == nil {
			out = append(out, cli.Named{Flag: "-archive", Path: p})
		}
	}
	return out
}

// RecordFlags and WatchFlags name the flags Register adds, in the order a
// command's help lists them.
var (
	RecordFlags = []string{"json,o", "archive", "system", "config", "label", "campaign", "cell"}
	WatchFlags  = []string{"watchdog", "deadline", "progress"}
)

// ArchiveFlag is -archive (the default archive) or -archive=PATH.
type ArchiveFlag struct {
	On   bool
	Path string
}

func (a *ArchiveFlag) IsBoolFlag() bool { return true }

func (a *ArchiveFlag) String() string {
	if a == nil {
		return ""
	}
	return a.Path
}

func (a *ArchiveFlag) Set(s string) error {
	switch s {
	case "true":
		a.On, a.Path = true, ""
	case "false":
		a.On, a.Path = false, ""
	case "":
		return errors.New("empty archive path")
	default:
		a.On, a.Path = true, s
	}
	return nil
}

// watchFlags are the watchdog's deadlines: -watchdog per size (a duration,
// "auto" or "off") and -deadline for the whole run.
type watchFlags struct {
	size, run time.Duration
}

func (w *watchFlags) register(fs *flag.FlagSet) {
	fs.Func("watchdog", "`D|auto|off` end the job when one size runs longer than D (90, 90s, 5m); "+
		"auto (the default): 60 s plus the benchmark's time budget plus 10 x what the previous size "+
		"took, scaled by its bytes. The job is aborted, rank 0 says what was in flight, the records "+
		"end with status \"deadline\", exit status 5. MPI_Finalize gets 2 s plus 10 x what MPI_Init "+
		"took, at most 30 s (or D if shorter), the records being complete", func(s string) error {
		switch s {
		case "auto":
			w.size = 0
			return nil
		case "off":
			w.size = -1
			return nil
		}
		d, err := cli.ParseDuration(s)
		w.size = d
		return err
	})
	fs.Func("deadline", "`D` end the job when the whole run takes longer than D (default off)", func(s string) error {
		d, err := cli.ParseDuration(s)
		w.run = d
		return err
	})
}

// Flusher is rank 0's text writer: the suite's table layout.
type Flusher interface {
	Flush() error
}

// Open opens the record file on rank 0 (-json: "" for none, "-" for
// stdout) and the archive when asked, makes rank 0's text writer with
// newText over stdout (or stderr, when the records take stdout), builds
// the run record from every rank's provenance and writes it. options are
// the run's, as its record keeps them. It returns the text writer and the
// run record (rank 0; nil elsewhere).
func Open[T Flusher](s *Session, options any, stdout io.Writer, newText func(io.Writer) T) (T, *result.Run, error) {
	var text T
	textOut, err := s.openRecords(stdout)
	if err != nil {
		return text, nil, err
	}
	text = newText(textOut)
	s.out.text, s.out.flush = textOut, text.Flush
	run, err := s.provenance(options)
	return text, run, err
}

func (s *Session) openRecords(stdout io.Writer) (io.Writer, error) {
	f := s.cmd.Flags
	text := stdout
	err := s.Agree(func() string {
		if f.Archive.On {
			path, err := archive.Resolve(f.Archive.Path)
			if err != nil {
				return err.Error()
			}
			db, err := archive.Open(path)
			if err != nil {
				return fmt.Sprintf("-archive: %v", err)
			}
			if db.ReadOnly {
				db.Close()
				return fmt.Sprintf("-archive: %v", db.ReadOnlyError())
			}
			if db.Warning != "" {
				fmt.Fprintln(s.stderr, db.Warning)
			}
			s.out.db, s.out.keep, s.out.note = db, &result.Bundle{}, s.stderr
		}
		switch path := f.JSON; path {
		case "":
		case "-":
			s.out.enc = result.NewEncoder(stdout)
			text = s.stderr
		default:
			file, err := openLocked(path)
			if err != nil {
				return fmt.Sprintf("-json: %v", err)
			}
			s.out.file, s.out.enc = file, result.NewEncoder(file)
		}
		return ""
	})
	return text, err
}

// openLocked opens a record file for a run: a regular file is locked
// (flock, released when it is closed) before it is emptied, so that a
// second job naming the same file is refused instead of truncating the
// records the first is writing.
func openLocked(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return f, err // a device or a pipe: written as it is
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: another gomb job is writing its records there; write elsewhere", path)
		}
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Locked runs f on rank 0's output with its lock held: text that a signal
// must not cut.
func (s *Session) Locked(f func() error) error { return s.out.locked(f) }

// Result writes a result record, then lets text render it (rank 0).
func (s *Session) Result(r *result.Result, text func(*result.Result) error) error {
	return s.out.result(r, text)
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
	text  io.Writer      // where the text goes
	flush func() error   // the text writer's
	start time.Time
	runID string
	prog  *Progress
	ended bool // the end record is written
}

// cost is what the records cost rank 0 so far (the lock held).
func (o *output) cost() *result.RecordCost {
	gather, n := mpi.SampleGathers()
	c := &result.RecordCost{GatherS: gather.Seconds(), Samples: n, PeakRSSMB: peakRSSMB()}
	if o.enc != nil {
		b, largest, enc := o.enc.Cost()
		c.Bytes, c.LargestBytes, c.EncodeS = b, largest, enc.Seconds()
	}
	return c
}

// peakRSSMB is this process's peak resident set (VmHWM), MiB; 0 where
// /proc does not say.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb float64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
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

// end writes the end record (with summary, the ring's) and closes the
// stream; it keeps the lock when keep is set (the process is about to exit
// on a signal). It reports the first error of writing, syncing or closing
// the record file.
func (o *output) end(status, sig, msg string, summary any, keep bool) (err error) {
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
		Time: time.Now(), ElapsedS: time.Since(o.start).Seconds(), Cost: o.cost()}
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
		// A run the archive did not take fails the command (its -json
		// records are whole all the same, for archive add later).
		if id, _, e := o.db.Add(o.keep); e != nil {
			if err == nil {
				err = fmt.Errorf("-archive: %w", e)
			}
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
