package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"runtime/debug"
	"slices"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
)

func importHelp() *cli.Help {
	return &cli.Help{
		Usage: "gomb import [flags] FILE...",
		Intro: `Turns existing benchmark output into gomb records (JSON Lines, schema
gomb/v1) on stdout: IMB logs (IMB-MPI1, -P2P, -EXT, -NBC, -RMA, -IO, -MT; 4.x-2021.x,
several #processes blocks, -multi tables, time-out and out-of-mem rows,
launcher lines mixed in), OSU Micro-Benchmarks 4.x-7.x output, mpi-comm-bench
output, and gomb's own text tables and record files. The format is recognised
from the content; '-' reads stdin. Everything the log says is kept (date, MPI
version, calling sequence, launch command, hosts, exported variables), and
what its lines say of where the ranks ran (srun -N, -host lists, -ppn 1,
"nodes A B", an Intel MPI rank table: meta nodes/nodes_from, and the locality)
and of the transport (FI_PROVIDER, UCX_TLS, an Intel MPI provider line: meta
fabric/fabric_from), which explain reads as evidence. A malformed line is
reported as FILE:LINE and skipped; a test whose header has no rows is named;
a run whose process count the log does not say is imported with np 0 and
named once; a file in no known format is an error.`,
		Groups: []cli.Group{{Title: "Flags:", Flags: slices.Concat([]string{"o"}, logFlagNames)}},
		Outro:  cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage}, map[int]string{0: "imported", cli.ExitFailure: "I/O error", cli.ExitUsage: "a file in no known format or bad flags"}),
		Examples: []string{
			"gomb import imb-hpc4-20260101-baseline.log > baseline.jsonl",
			"gomb import -system hpc4 -config xpmem -np 64 logs/*.log -o xpmem.jsonl",
			"gomb archive add -system hpc4 logs/*.log      # straight into the archive",
		},
	}
}

// importFlags are what import and archive add share: the labels and what
// a log may not say about itself.
type importFlags struct {
	labels cli.Labels
	opt    importer.Options
}

// logFlagNames are the flags importFlags registers, in help order.
var logFlagNames = []string{"system", "config", "label", "campaign", "cell", "np", "locality"}

func (f *importFlags) register(fs *flag.FlagSet) {
	f.labels.Register(fs)
	logFlags(fs, &f.opt)
}

func (f *importFlags) options() importer.Options {
	o := f.opt
	o.Labels = f.labels
	return o
}

// logFlags registers -np and -locality, what a log may not say about
// itself.
func logFlags(fs *flag.FlagSet, o *importer.Options) {
	fs.Func("np", "`N` processes, for logs that do not say", cli.AtLeast(1, "processes", func(v int) { o.NP = v }))
	fs.Func("locality", "`intra-node|inter-node` where the ranks ran, for logs that do not say", func(s string) error {
		if s != result.IntraNode && s != result.InterNode {
			return fmt.Errorf("want intra-node or inter-node, got %q", s)
		}
		o.Locality = s
		return nil
	})
}

// fileReport prints what an importer.Reader says at the end of each file
// (malformed lines, a file it could not read or recognise, a file it read
// nothing from) and keeps the exit status of the first file that failed:
// 1 for one that could not be read, 2 for one in no known format or with
// no result gomb accepts.
type fileReport struct {
	stderr  io.Writer
	failed  error
	results int // of the file being read
	empty   int // runs of a log in the file being read that gave no result
}

// runs yields the reader's runs, reporting the end of each file on the
// way. A log's run that gave no result (every table refused) is not
// yielded: an IMB or OSU header alone is no measurement. gomb's own
// records are kept whole, an interrupted run's end included.
func (f *fileReport) runs(r *importer.Reader) iter.Seq[*result.Bundle] {
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

func (f *fileReport) end(r *importer.Reader) {
	results, empty := f.results, f.empty
	f.results, f.empty = 0, 0
	if err := r.FileErr(); err != nil {
		fmt.Fprintf(f.stderr, "gomb: %v\n", err)
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
		fmt.Fprintln(f.stderr, msg)
		f.fail(cli.ExitUsage)
		return
	}
	if empty > 0 {
		fmt.Fprintf(f.stderr, "gomb: %s: %d run(s) without a result left out\n", r.Name(), empty)
	}
	for _, p := range file.Problems {
		if se, ok := p.(*result.SyntaxError); ok && se.Kept {
			fmt.Fprintf(f.stderr, "%v\n", p)
		} else {
			fmt.Fprintf(f.stderr, "%v (skipped)\n", p)
		}
	}
	for _, n := range file.Notes {
		fmt.Fprintln(f.stderr, n)
	}
}

// fail keeps the first failure's exit status.
func (f *fileReport) fail(code int) {
	if f.failed == nil {
		f.failed = cli.Reported{Code: code}
	}
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

// importCmd is gomb import's command line.
type importCmd struct {
	importFlags
	out   string
	files []string
}

func importFlagSet(c *importCmd) *flag.FlagSet {
	fs := newFlagSet("import")
	fs.StringVar(&c.out, "o", "", "`FILE` write the records to FILE instead of stdout")
	c.register(fs)
	return fs
}

var importUsage = helpWriter(importHelp, importFlagSet(&importCmd{}))

func parseImport(args []string) (*importCmd, error) {
	c := &importCmd{}
	files, err := parseCommand(importFlagSet(c), args)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, cli.Usage("import: no file given ('gomb import -help')")
	}
	c.files = files
	return c, nil
}

func runImport(stdout, stderr io.Writer, args []string) error {
	c, err := parseImport(args)
	if err != nil {
		return helpOr(err, stdout, importUsage)
	}
	defer lessGC()()
	var runs, results int
	report := &fileReport{stderr: stderr}
	err = cli.WriteOutput(stdout, "-o", c.out, c.files, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		// Reading and parsing on one core, encoding and writing on the other.
		r := importer.NewReader(c.files, c.options())
		defer r.Close()
		for run := range report.runs(r) {
			if err := run.Encode(bw); err != nil {
				return err
			}
			runs++
			results += len(run.Results)
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if runs == 0 && report.failed != nil {
			return report.failed // nothing to keep: leave no file
		}
		return nil
	})
	fmt.Fprintf(stderr, "gomb import: %d runs, %d results\n", runs, results)
	if err != nil {
		return err
	}
	return report.failed // the good files' runs are written
}
