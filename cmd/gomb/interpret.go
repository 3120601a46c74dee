package main

// What compare, check, explain and report share: reading the runs a user
// names (files, archive run ids, selections) and their common flags.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/input"
	"github.com/gomb-hpc/gomb/internal/report/text"
	"github.com/gomb-hpc/gomb/result"
)

// inputHelp describes how runs are named, in each command's usage.
const inputHelp = `Runs are named by gomb record files, IMB/OSU/mpi-comm-bench logs (read as
gomb import does), archive run ids, or archive selections (KEY=VALUE words:
system=hpc4 config=xpmem last=5 ...; see 'gomb archive -help'). Several in
one argument are separated by commas or blanks.`

// inputFlags are the flags every interpreting command takes.
type inputFlags struct {
	archive string
	json    string
	opt     importer.Options
}

func (f *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.archive, "archive", "", "")
	logFlags(fs, &f.opt)
}

// logFlags registers -np and -locality, what a log may not say about
// itself.
func logFlags(fs *flag.FlagSet, o *importer.Options) {
	fs.Func("np", "", atLeast(1, "processes", func(v int) { o.NP = v }))
	fs.Func("locality", "", func(s string) error {
		if s != result.IntraNode && s != result.InterNode {
			return fmt.Errorf("want intra-node or inter-node, got %q", s)
		}
		o.Locality = s
		return nil
	})
}

const inputFlagsHelp = `  -archive PATH   the archive for run ids and selections (default $GOMB_ARCHIVE,
                  else ~/.local/share/gomb/archive.db)
  -np N, -locality intra-node|inter-node
                  for logs that do not say
`

// jsonHelp describes -json of compare, check and explain.
const jsonHelp = `  -json FILE      also write the result as JSON ('-': stdout, the table to stderr)
`

func (f *inputFlags) resolver() *input.Resolver {
	return &input.Resolver{Options: f.opt, Archive: func() (*archive.DB, error) { return openArchive(f.archive) }}
}

// parseCommand parses a command's flags, printing usage for -help.
func parseCommand(stdout io.Writer, fs *flag.FlagSet, usage string, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return nil, errHelpShown
	}
	if err != nil {
		return nil, usageErr("%s: %v", strings.TrimPrefix(fs.Name(), "gomb "), strings.TrimPrefix(err.Error(), "flag: "))
	}
	return pos, nil
}

// helpDone ends a command that printed its help without an error.
func helpDone(err error) error {
	if errors.Is(err, errHelpShown) {
		return nil
	}
	return err
}

// linkFlag registers -link RATE (Gb/s).
func linkFlag(fs *flag.FlagSet, name string, link *analysis.Link) {
	fs.Func(name, "", func(s string) error {
		g, err := parseLink(s)
		*link = analysis.Link{Gbps: g, Source: "-" + name}
		return err
	})
}

// resolve reads one side's runs and reports malformed log lines.
func resolve(stderr io.Writer, r *input.Resolver, what string, items []string) ([]*result.Bundle, error) {
	runs, err := r.Resolve(input.Items(items))
	printProblems(stderr, r.Problems)
	r.Problems = nil
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return nil, err
		}
		return nil, usageErr("%s: %v", what, err)
	}
	return runs, nil
}

// output sends the text to stdout, or to stderr when -json - takes stdout.
func (f *inputFlags) text(stdout, stderr io.Writer) io.Writer {
	if f.json == "-" {
		return stderr
	}
	return stdout
}

// writeJSON writes v to -json's file, if asked; a float without a value
// (an empty band, a missing size) is null. items are what the command read:
// its files and the archive are no place for it.
func (f *inputFlags) writeJSON(stdout io.Writer, v any, items ...[]string) error {
	if f.json == "" {
		return nil
	}
	return writeOutput(stdout, "-json", f.json, f.inputs(items...), func(w io.Writer) error {
		return text.WriteJSON(w, v)
	})
}

// refuseJSONInput fails early when -json names one of the inputs.
func (f *inputFlags) refuseJSONInput(items ...[]string) error {
	return refuseInput("-json", f.json, f.inputs(items...))
}

// inputs are the files a command reads: the items that name files and the
// archive.
func (f *inputFlags) inputs(items ...[]string) []string {
	var in []string
	for _, its := range items {
		in = append(in, input.Items(its)...)
	}
	if f.archive != "" {
		in = append(in, f.archive)
	} else if p, err := archive.DefaultPath(); err == nil {
		in = append(in, p)
	}
	return in
}

// describeRun names a run in a title line.
func describeRun(r *result.Bundle) string {
	parts := []string{r.Run.Suite}
	if r.Run.Source != nil && r.Run.Source.File != "" {
		parts = append(parts, r.Run.Source.File)
	}
	if !r.Run.Start.IsZero() {
		parts = append(parts, r.Run.Start.UTC().Format("2006-01-02 15:04"))
	}
	for _, k := range []string{"system", "config"} {
		if v := r.Run.Labels[k]; v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if m := r.Run.MPIName(); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, ", ")
}

// openArchive opens path, or the default archive for "".
func openArchive(path string) (*archive.DB, error) {
	if path == "" {
		p, err := archive.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	db, err := archive.Open(path)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return db, nil
}

// sideName names a side by what the user gave, the first few items of a
// long list (a glob) with a count.
func sideName(items []string) string {
	its := input.Items(items)
	if len(its) > 3 {
		return fmt.Sprintf("%s, %s ... (%d items)", its[0], its[1], len(its))
	}
	return strings.Join(its, " ")
}

// splitSides cuts "A B" or "A... vs B...".
func splitSides(pos []string) (a, b []string, err error) {
	for i, p := range pos {
		if p == "vs" {
			a, b = pos[:i], pos[i+1:]
			if len(a) == 0 || len(b) == 0 {
				return nil, nil, usageErr("compare: runs on both sides of 'vs'")
			}
			return a, b, nil
		}
	}
	if len(pos) != 2 {
		return nil, nil, usageErr("compare: give two sides, A B or A... vs B... ('gomb compare -help')")
	}
	return pos[:1], pos[1:], nil
}

// alphaFlag registers -alpha, the false discovery rate of compare and
// report: a number strictly between 0 and 1.
func alphaFlag(fs *flag.FlagSet) *float64 {
	alpha := 0.05
	fs.Func("alpha", "", func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0 && v < 1) {
			return fmt.Errorf("want a false discovery rate between 0 and 1 (0.05), got %q", s)
		}
		alpha = v
		return nil
	})
	return &alpha
}

// noiseFlag is -noise: the launch-to-launch noise compare assumes when
// there are too few launches for its test (0: not given).
func noiseFlag(fs *flag.FlagSet) *float64 {
	noise := 0.0
	fs.Func("noise", "", func(s string) error {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if strings.HasSuffix(s, "%") {
			v /= 100
		}
		if err != nil || !(v > 0 && v < 10) {
			return fmt.Errorf("want the noise of one launch as a fraction or a percentage (0.15, 15%%), got %q", s)
		}
		noise = v
		return nil
	})
	return &noise
}

// parseLink reads a link rate in Gb/s: "100", "100Gb/s", "25GbE", or in
// gigabytes "12.5GB/s".
func parseLink(s string) (float64, error) {
	v, mult := strings.TrimSpace(s), 1.0
	if strings.HasSuffix(v, "GB/s") {
		v, mult = strings.TrimSuffix(v, "GB/s"), 8
	} else {
		for _, suf := range []string{"gb/s", "gbit/s", "gbps", "gbe", "g"} {
			if strings.HasSuffix(strings.ToLower(v), suf) {
				v = v[:len(v)-len(suf)]
				break
			}
		}
	}
	g, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(g > 0) || g > 1e5 {
		return 0, fmt.Errorf("want a rate in Gb/s (100, 200Gb/s, 25GbE, 12.5GB/s), got %q", s)
	}
	return g * mult, nil
}

// launchNoise is the noise compare holds sizes against when a side has too
// few launches: -noise when given; else, measured over the archive's
// earlier runs of a side's system (three or more: analysis.LaunchNoise);
// else 0, gomb's default.
func launchNoise(r *input.Resolver, archivePath string, given float64, sides ...[]*result.Bundle) (float64, string) {
	if given > 0 {
		return given, "-noise"
	}
	for _, runs := range sides {
		if len(runs) == 0 || len(runs) >= 4 {
			continue
		}
		last := runs[len(runs)-1]
		hist, err := history(r, archivePath, last, 10)
		if err != nil || len(hist) < 3 {
			continue
		}
		if n, ok := analysis.LaunchNoise(hist); ok {
			// 2% at least: identical launches do not make a noiseless machine
			return max(n, 0.02), fmt.Sprintf("measured over the archive's last %d runs of system=%s", len(hist), last.Run.Labels["system"])
		}
	}
	return 0, ""
}
