package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

// Where a measuring command's results go: the record file (-json), the
// archive (-archive) and rank 0's text, behind one lock (output).

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

func (a *archiveFlag) String() string { return a.path }

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
