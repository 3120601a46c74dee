package input

// How gomb import and gomb archive add report the files they read.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"runtime/debug"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
)

// FileReport prints what an importer.Reader says at the end of each file
// (malformed lines, a file it could not read or recognise, a file it read
// nothing from) and keeps the exit status of the first file that failed:
// 1 for one that could not be read, 2 for one in no known format or with
// no result gomb accepts.
type FileReport struct {
	Stderr  io.Writer
	Failed  error // the first failure: cli.Reported with its exit status
	results int   // of the file being read
	empty   int   // runs of a log in the file being read that gave no result
}

// Runs yields the reader's runs, reporting the end of each file on the
// way. A log's run that gave no result (every table refused) is not
// yielded: an IMB or OSU header alone is no measurement. gomb's own
// records are kept whole, an interrupted run's end included.
func (f *FileReport) Runs(r *importer.Reader) iter.Seq[*result.Bundle] {
	return func(yield func(*result.Bundle) bool) {
		for r.Scan() {
			run := r.Run()
			switch {
			case run == nil:
				f.end(r)
			case len(run.Results) == 0 && run.Run.Source != nil && run.Run.Source.Format != "gomb":
				f.empty++
			default:
				if f.results += len(run.Results); !yield(run) {
					return
				}
			}
		}
	}
}

func (f *FileReport) end(r *importer.Reader) {
	results, empty := f.results, f.empty
	f.results, f.empty = 0, 0
	if err := r.FileErr(); err != nil {
		fmt.Fprintf(f.Stderr, "gomb: %v\n", err)
		code := cli.ExitUsage
		if errors.As(err, new(*fs.PathError)) {
			code = cli.ExitFailure
		}
		f.fail(code)
		return
	}
	file := r.File()
	if results == 0 { // nothing read: one line, not one per refused line
		msg := fmt.Sprintf("gomb: %s: no results in this %s file", r.Name(), file.Format)
		if n := len(file.Problems); n > 0 {
			msg += fmt.Sprintf(": %d line(s) refused, the first: %v", n, file.Problems[0])
		}
		fmt.Fprintln(f.Stderr, msg)
		f.fail(cli.ExitUsage)
		return
	}
	if empty > 0 {
		fmt.Fprintf(f.Stderr, "gomb: %s: %d run(s) without a result left out\n", r.Name(), empty)
	}
	PrintProblems(f.Stderr, file.Problems)
	for _, n := range file.Notes {
		fmt.Fprintln(f.Stderr, n)
	}
}

// fail keeps the first failure's exit status.
func (f *FileReport) fail(code int) {
	if f.Failed == nil {
		f.Failed = cli.Reported{Code: code}
	}
}

// LessGC lets the heap grow to five times what is live before collecting,
// but not past gcLimit: imports allocate and drop small objects at a high
// rate around a heap of a few megabytes, and the default target made
// archive add spend more than half its time collecting. It returns the
// undo.
func LessGC() func() {
	old := debug.SetGCPercent(400)
	oldLimit := debug.SetMemoryLimit(gcLimit)
	return func() {
		debug.SetGCPercent(old)
		debug.SetMemoryLimit(oldLimit)
	}
}

// gcLimit is the Go heap an import aims to stay under whatever the size of
// its input (a soft limit: the runtime collects harder as it nears it).
const gcLimit = 48 << 20

// PrintProblems writes one line per problem of a file read: a line
// skipped, or one kept with a note.
func PrintProblems(stderr io.Writer, problems []error) {
	for _, p := range problems {
		if se, ok := p.(*result.SyntaxError); ok && se.Kept {
			fmt.Fprintf(stderr, "%v\n", p)
		} else {
			fmt.Fprintf(stderr, "%v (skipped)\n", p)
		}
	}
}
