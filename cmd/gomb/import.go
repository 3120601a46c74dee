package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
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

// importCmd is gomb import's command line.
type importCmd struct {
	importFlags
	out   string
	files []string
}

func importFlagSet(c *importCmd) *flag.FlagSet {
	fs := cli.NewFlagSet("import")
	fs.StringVar(&c.out, "o", "", "`FILE` write the records to FILE instead of stdout")
	c.register(fs)
	return fs
}

var importUsage = helpWriter(importHelp, importFlagSet(&importCmd{}))

func parseImport(args []string) (*importCmd, error) {
	c := &importCmd{}
	files, err := cli.ParseCommand(importFlagSet(c), args)
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
	defer input.LessGC()()
	var runs, results int
	report := &input.FileReport{Stderr: stderr}
	err = cli.WriteOutput(stdout, "-o", c.out, c.files, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		// Reading and parsing on one core, encoding and writing on the other.
		r := importer.NewReader(c.files, c.options())
		defer r.Close()
		for run := range report.Runs(r) {
			if err := run.Encode(bw); err != nil {
				return err
			}
			runs++
			results += len(run.Results)
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if runs == 0 && report.Failed != nil {
			return report.Failed // nothing to keep: leave no file
		}
		return nil
	})
	fmt.Fprintf(stderr, "gomb import: %d runs, %d results\n", runs, results)
	if err != nil {
		return err
	}
	return report.Failed // the good files' runs are written
}
