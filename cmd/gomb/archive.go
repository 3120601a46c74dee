package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

const archiveUsageText = `Usage: gomb archive [-archive PATH] COMMAND [flags] [args]

One SQLite file holds every run, measured or imported, with its raw samples
and labels. The default file is $GOMB_ARCHIVE, else
$XDG_DATA_HOME/gomb/archive.db (~/.local/share/gomb/archive.db).

Commands:
  add [-system S] [-config C] [-label K=V] [-np N] [-locality L] FILE...
        add gomb record files or IMB/OSU/mpi-comm-bench logs (imported on the
        way); a run already in the archive is not added again
  list [SELECTION]              the runs, oldest first
  show [-text] ID               a run's labels and results; -text prints it
                                as its suite's own text (IMB-MPI1, OSU or
                                mpi-comm-bench layout), as if run again
  rm ID...                      remove runs
  export [-o FILE] [SELECTION]  the runs as gomb records (JSON Lines)
  history -b BENCH -bytes N [-np N] [-metric M] [SELECTION]
        one metric (t_avg_us, t_min_us, t_max_us, mbytes_per_sec) of one
        benchmark and size over time
  check                         SQLite's integrity check and gomb's

` + archive.SelectorHelp + `

Measuring commands add their run with -archive (gomb imb -archive ...).

Exit status: 0 done, 1 a database or I/O error, 2 bad input (unknown
command, bad selection, no such run, a file in no known format, a file that
is not a gomb archive).

Examples:
  gomb archive add -system hpc4 -config baseline imb-hpc4-*.log
  gomb archive list system=hpc4 locality=inter-node since=2026-01-01
  gomb archive history -b PingPong -bytes 8 system=hpc4
  gomb archive show -text 12 > run12-imb.txt
  gomb archive export config=xpmem > xpmem.jsonl
`

func runArchive(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("gomb archive", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("archive", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, archiveUsageText)
			return nil
		}
		return usageErr("archive: %v", strings.TrimPrefix(err.Error(), "flag: "))
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return usageErr("archive: no command ('gomb archive -help' lists them)")
	}
	cmd, rest := rest[0], rest[1:]
	sub := map[string]func(*archiveCmd, []string) error{
		"add": archiveAdd, "list": archiveList, "show": archiveShow, "rm": archiveRm,
		"export": archiveExport, "history": archiveHistory, "check": archiveCheck,
	}
	run, ok := sub[cmd]
	if cmd == "help" || cmd == "-help" || cmd == "-h" {
		fmt.Fprint(stdout, archiveUsageText)
		return nil
	}
	if !ok {
		return usageErr("archive: unknown command %q ('gomb archive -help' lists them)", cmd)
	}
	c := &archiveCmd{stdout: stdout, stderr: stderr, path: *path, name: cmd}
	err := run(c, rest)
	if c.db != nil {
		c.db.Close()
	}
	if errors.Is(err, errHelpShown) {
		return nil
	}
	return err
}

// archiveCmd is one archive subcommand: its output and, once its flags
// are parsed, the open archive.
type archiveCmd struct {
	stdout, stderr io.Writer
	path, name     string
	db             *archive.DB
}

// flags is a subcommand's flag set; -archive PATH is accepted after the
// subcommand too.
func (c *archiveCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("gomb archive "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.path, "archive", c.path, "")
	return fs
}

// parse parses the subcommand's flags, returns its arguments and opens
// the archive.
func (c *archiveCmd) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, archiveUsageText)
		return nil, errHelpShown
	}
	if err != nil {
		return nil, usageErr("archive %s: %v", c.name, strings.TrimPrefix(err.Error(), "flag: "))
	}
	c.db, err = openArchive(c.path)
	return pos, err
}

// errHelpShown: a subcommand printed its help; the command is done.
var errHelpShown = errors.New("help shown")

// selection parses the subcommand's flags and its selection words.
func (c *archiveCmd) selection(fs *flag.FlagSet, args []string) (archive.Selector, error) {
	words, err := c.parse(fs, args)
	if err != nil {
		return archive.Selector{}, err
	}
	s, err := archive.ParseSelector(words)
	if err != nil {
		return s, usageErr("archive: %v", err)
	}
	return s, nil
}

// ids parses the subcommand's run ids.
func (c *archiveCmd) ids(args []string) ([]int64, error) { return c.idsWith(c.flags(), args) }

// idsWith is ids for a subcommand with flags of its own.
func (c *archiveCmd) idsWith(fs *flag.FlagSet, args []string) ([]int64, error) {
	words, err := c.parse(fs, args)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, w := range words {
		id, err := strconv.ParseInt(w, 10, 64)
		if err != nil || id <= 0 {
			return nil, usageErr("archive: %q is not a run id", w)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func archiveAdd(c *archiveCmd, args []string) error {
	defer lessGC()()
	var f importFlags
	fs := c.flags()
	f.register(fs)
	files, err := c.parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("archive add: no file given")
	}
	added := 0
	batch := c.db.Batch()
	runs, _, err := importFiles(c.stderr, files, f.options(), archive.Pack, func(name string, r *result.Bundle, p *archive.Packed) error {
		id, isNew, err := batch.AddPacked(p)
		if err != nil {
			return fmt.Errorf("archive add %s: %w", name, err)
		}
		if isNew {
			added++
			fmt.Fprintf(c.stdout, "added run %d: %s %s, %d results (%s)\n", id, r.Run.Suite, describe(r), len(r.Results), name)
		} else {
			fmt.Fprintf(c.stdout, "already archived as run %d: %s (%s)\n", id, describe(r), name)
		}
		return nil
	})
	if cerr := batch.Commit(); cerr != nil && err == nil {
		err = fmt.Errorf("archive add: %w", cerr)
	}
	fmt.Fprintf(c.stderr, "gomb archive: %d of %d runs added to %s\n", added, runs, c.db.Path)
	return err
}

// describe names a run in one phrase: its date and labels.
func describe(r *result.Bundle) string {
	var parts []string
	if !r.Run.Start.IsZero() {
		parts = append(parts, r.Run.Start.UTC().Format("2006-01-02 15:04"))
	}
	for _, k := range []string{"system", "config"} {
		if v := r.Run.Labels[k]; v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if len(parts) == 0 {
		return "undated"
	}
	return strings.Join(parts, " ")
}

func archiveRm(c *archiveCmd, args []string) error {
	ids, err := c.ids(args)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return usageErr("archive rm: give run ids")
	}
	n, err := c.db.Remove(ids)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "removed %d runs\n", n)
	if int(n) != len(ids) {
		return usageErr("archive rm: %d of the ids are not in the archive", len(ids)-int(n))
	}
	return nil
}

func archiveExport(c *archiveCmd, args []string) error {
	fs := c.flags()
	out := fs.String("o", "", "")
	sel, err := c.selection(fs, args)
	if err != nil {
		return err
	}
	var n int
	err = writeOutput(c.stdout, "archive export -o", *out, []string{c.db.Path}, func(w io.Writer) (err error) {
		n, err = c.db.Export(sel, w)
		return err
	})
	if err == nil {
		fmt.Fprintf(c.stderr, "exported %d runs\n", n)
	}
	return err
}

func archiveCheck(c *archiveCmd, args []string) error {
	words, err := c.parse(c.flags(), args)
	if err != nil {
		return err
	}
	if len(words) > 0 {
		return usageErr("archive check takes no arguments")
	}
	problems, err := c.db.Verify()
	if err != nil {
		return err
	}
	v, _ := c.db.Version()
	for _, p := range problems {
		fmt.Fprintln(c.stdout, p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("archive %s: %d problems", c.db.Path, len(problems))
	}
	fmt.Fprintf(c.stdout, "ok: %s, schema %d\n", c.db.Path, v)
	return nil
}
