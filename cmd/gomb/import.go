package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/result"
)

const importUsageText = `Usage: gomb import [flags] FILE...

Turns existing benchmark output into gomb records (JSON Lines, schema
gomb/v1) on stdout: IMB-MPI1 logs (2018-2021.x, several #processes blocks,
-multi tables, time-out and out-of-mem rows, launcher lines mixed in), OSU
Micro-Benchmarks 5.x-7.x output, mpi-comm-bench output, and gomb's own text
tables and record files. The format is recognised from the content; '-' reads
stdin. Everything the log says is kept (date, MPI version, calling sequence,
launch command, hosts, exported variables). A malformed line is reported as
FILE:LINE and skipped; a file in no known format is an error.

Flags:
  -o FILE          write the records to FILE instead of stdout
  -system NAME     label the runs with the system they ran on
  -config NAME     label the runs with the configuration
  -label KEY=VALUE another label (repeatable)
  -np N            processes, for logs that do not say
  -locality L      intra-node or inter-node, for logs that do not say

Exit status: 0 imported, 1 I/O error, 2 a file in no known format or bad flags.

Examples:
  gomb import imb-hpc4-20260101-baseline.log > baseline.jsonl
  gomb import -system hpc4 -config xpmem -np 64 logs/*.log -o xpmem.jsonl
  gomb archive add -system hpc4 logs/*.log      # straight into the archive
`

// importFlags are what import and archive add share.
type importFlags struct {
	labelFlags
	opt importer.Options
}

func (f *importFlags) register(fs *flag.FlagSet) {
	f.labelFlags.register(fs)
	logFlags(fs, &f.opt)
}

func (f *importFlags) options() importer.Options {
	o := f.opt
	o.Labels = f.labels
	return o
}

// printProblems writes one line per problem of a file read: a line
// skipped, or one kept with a note.
func printProblems(stderr io.Writer, problems []error) {
	for _, p := range problems {
		if se, ok := p.(*result.SyntaxError); ok && se.Kept {
			fmt.Fprintf(stderr, "%v\n", p)
		} else {
			fmt.Fprintf(stderr, "%v (skipped)\n", p)
		}
	}
}

// importFiles imports every file, reporting problems on stderr, and calls
// each with every run and what prep made of it. Reading, parsing and prep
// run on a goroutine of their own, a few runs ahead of each (on the
// caller's goroutine): on two cores, imports take 0.65 and archive adds
// 0.8 times as long. It returns an error for the first file that could not be read
// or recognised, after trying them all; an error of prep or each ends the
// import.
func importFiles[T any](stderr io.Writer, files []string, opt importer.Options,
	prep func(*result.Bundle) (T, error), each func(name string, r *result.Bundle, t T) error) (runs, results int, err error) {
	type item struct {
		name string
		r    *result.Bundle
		t    T
		err  error
	}
	// Runs travel in batches: waking the other goroutine for each costs
	// more than the work on a small run.
	queue := make(chan []item, 2)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(queue)
		var batch []item
		send := func() error {
			select {
			case queue <- batch:
				batch = nil
				return nil
			case <-stop:
				return errStopped
			}
		}
		readErr = readFiles(stderr, files, opt, func(name string, r *result.Bundle) error {
			t, err := prep(r)
			if batch = append(batch, item{name, r, t, err}); err != nil || len(batch) == queueBatch {
				if serr := send(); serr != nil {
					return serr
				}
			}
			return err
		})
		if len(batch) > 0 {
			send()
		}
	}()
	var eachErr error
	for batch := range queue {
		for _, it := range batch {
			if eachErr != nil {
				break // drained until the reader sees stop
			}
			if eachErr = it.err; eachErr == nil {
				eachErr = each(it.name, it.r, it.t)
			}
			if eachErr != nil {
				close(stop)
				break
			}
			runs++
			results += len(it.r.Results)
		}
	}
	if eachErr != nil {
		return runs, results, eachErr
	}
	return runs, results, readErr
}

// queueBatch runs go to each at once.
const queueBatch = 32

var errStopped = errors.New("stopped")

func noPrep(*result.Bundle) (struct{}, error) { return struct{}{}, nil }

// readFiles imports every file, reporting problems on stderr, and calls
// each with every run. It returns each's first error, else an error for
// the first file that could not be read or recognised, after trying them
// all.
func readFiles(stderr io.Writer, files []string, opt importer.Options, each func(name string, r *result.Bundle) error) error {
	var firstErr error
	for _, name := range files {
		var eachErr error // each's, which ends the import
		emit := func(r *result.Bundle) error {
			eachErr = each(name, r)
			return eachErr
		}
		var f *importer.File
		var ierr error
		if name == "-" {
			var data []byte
			if data, ierr = io.ReadAll(os.Stdin); ierr == nil {
				if f, ierr = importer.Import(data, name, opt); ierr == nil {
					for _, r := range f.Runs {
						if ierr = emit(r); ierr != nil {
							break
						}
					}
				}
			}
		} else {
			f, ierr = importer.ImportFile(name, name, opt, emit)
		}
		if eachErr != nil {
			return eachErr
		}
		if ierr != nil {
			fmt.Fprintf(stderr, "gomb: %v\n", ierr)
			if firstErr == nil {
				code := exitUsage // content in no known format
				if errors.As(ierr, new(*fs.PathError)) {
					code = exitFailure // the file could not be read
				}
				firstErr = &exitError{code: code, err: ierr}
			}
			continue
		}
		printProblems(stderr, f.Problems)
		if f.Count == 0 {
			fmt.Fprintf(stderr, "%s: no results in this %s file\n", name, f.Format)
		}
	}
	if firstErr != nil {
		return errReported{exitCode(firstErr)}
	}
	return nil
}

// lessGC lets the heap grow to five times what is live before collecting,
// but not past gcLimit: imports allocate and drop small objects at a high
// rate around a heap of a few megabytes, and the default target made
// archive add spend more than half its time collecting. It returns the
// undo.
func lessGC() func() {
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

func runImport(stdout, stderr io.Writer, args []string) error {
	defer lessGC()()
	var f importFlags
	var out string
	fs := flag.NewFlagSet("gomb import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	fs.StringVar(&out, "o", "", "")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, importUsageText)
		return nil
	}
	if err != nil {
		return usageErr("import: %v", strings.TrimPrefix(err.Error(), "flag: "))
	}
	if len(files) == 0 {
		return usageErr("import: no file given ('gomb import -help')")
	}
	var runs, results int
	var bad error // files that could not be read: reported, the others' runs kept
	err = writeOutput(stdout, "-o", out, files, func(w io.Writer) (err error) {
		bw := bufio.NewWriterSize(w, 1<<20)
		// Reading and parsing on one core, encoding and writing on the other.
		runs, results, err = importFiles(stderr, files, f.options(), noPrep, func(_ string, r *result.Bundle, _ struct{}) error {
			return r.Encode(bw)
		})
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		if errors.As(err, new(errReported)) && runs > 0 {
			bad, err = err, nil // the good files' runs are written
		}
		return err
	})
	fmt.Fprintf(stderr, "gomb import: %d runs, %d results\n", runs, results)
	if err != nil {
		return err
	}
	return bad
}
