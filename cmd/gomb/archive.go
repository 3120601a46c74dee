package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/input"
)

// archiveSub is one archive subcommand: its synopsis, its flags, what its
// arguments are, and what it does with the open archive.
type archiveSub struct {
	name     string
	synopsis string // after "gomb archive"
	summary  string
	flags    func(c *archiveCmd, fs *flag.FlagSet)     // nil: none of its own
	order    []string                                  // its flags, in help order
	args     func(c *archiveCmd, words []string) error // checks and keeps the arguments
	run      func(c *archiveCmd) error
	own      bool // opens the archives it names itself (copy), not -archive's
}

// archiveSubs are the subcommands, in the order help lists them.
var archiveSubs = []archiveSub{
	{"add", "add [-system S] [-config C] [-label K=V] [-campaign ID] [-np N] [-locality L] FILE...",
		"add gomb record files or IMB/OSU/mpi-comm-bench logs (imported on the way); a run already in the archive is not added again",
		func(c *archiveCmd, fs *flag.FlagSet) { c.imp.register(fs) }, logFlagNames, archiveFiles, archiveAdd, false},
	{"list", "list [SELECTION]", "the runs, oldest first", nil, nil, archiveSelection, archiveList, false},
	{"show", "show [-text] ID",
		"a run's labels and results; -text prints it as its suite's own text (IMB-MPI1, OSU or mpi-comm-bench layout), as if run again",
		func(c *archiveCmd, fs *flag.FlagSet) {
			fs.BoolVar(&c.text, "text", false, "print the run in its suite's own text layout")
		}, []string{"text"}, archiveOneID, archiveShow, false},
	{"rm", "rm ID...", "remove runs", nil, nil, archiveIDs, archiveRm, false},
	{"export", "export [-o FILE] [SELECTION]", "the runs as gomb records (JSON Lines)",
		func(c *archiveCmd, fs *flag.FlagSet) {
			fs.StringVar(&c.out, "o", "", "`FILE` write the records to FILE instead of stdout")
		}, []string{"o"}, archiveSelection, archiveExport, false},
	{"history", "history -b BENCH -bytes N [-np N] [-metric M] [SELECTION]",
		"one metric of one benchmark and size over time", historyFlags, []string{"b", "bytes", "np", "metric"},
		archiveHistoryArgs, archiveHistory, false},
	{"check", "check", "the database's integrity check (SQLite's) and gomb's: every run holds its results",
		nil, nil, archiveNoArgs, archiveCheck, false},
	{"copy", "copy SRC DST [SELECTION]",
		"copy the runs of archive SRC (all, or the selection's) into archive DST, each an SQLite file or a PostgreSQL URL; a run DST holds already is not copied again, so a copy done twice adds nothing; progress on stderr when it is a terminal",
		nil, nil, archiveCopyArgs, archiveCopy, true},
}

func archiveHelp() *cli.Help {
	h := &cli.Help{
		Usage: "gomb archive [-archive PATH] COMMAND [flags] [args]",
		Intro: `One archive holds every run, measured or imported, with its raw samples
and labels: an SQLite file (the default: $GOMB_ARCHIVE, else
$XDG_DATA_HOME/gomb/archive.db, i.e. ~/.local/share/gomb/archive.db), or a
PostgreSQL database, one for a whole centre, named by a URL
(postgres://USER@HOST/DB?sslmode=verify-full&schema=gomb). The URL takes
libpq's parameters and environment (PGHOST, PGUSER, PGPASSWORD, PGSSLMODE,
~/.pgpass); its tables are in the schema its schema= names, else
$GOMB_ARCHIVE_SCHEMA's, else gomb. A password never goes on the command
line (ps shows it to everyone): ~/.pgpass, PGPASSWORD or GOMB_ARCHIVE.`,
		Groups: []cli.Group{{Title: "Flags (before or after the command):", Flags: []string{"archive"}}},
		Outro: archive.SelectorHelp + `

Measuring commands add their run with -archive (gomb imb -archive ...).

` + cli.ExitHelp([]int{0, cli.ExitFailure, cli.ExitUsage}, map[int]string{0: "done", cli.ExitFailure: "a database or I/O error", cli.ExitUsage: "bad input (unknown command, bad selection, no such run, a file in no known format, a file that is not a gomb archive)"}),
		Examples: []string{
			"gomb archive add -system hpc4 -config baseline imb-hpc4-*.log",
			"gomb archive list system=hpc4 locality=inter-node since=2026-01-01",
			"gomb archive history -b PingPong -bytes 8 system=hpc4",
			"gomb archive show -text 12 > run12-imb.txt",
			"gomb archive export config=xpmem > xpmem.jsonl",
		},
	}
	for i, s := range archiveSubs {
		title := fmt.Sprintf("  %s\n%s", s.synopsis, indent(s.summary))
		if i == 0 {
			title = "Commands:\n" + title
		}
		fs := cli.NewFlagSet("archive " + s.name)
		if s.flags != nil {
			s.flags(&archiveCmd{}, fs)
		}
		h.Groups = append(h.Groups, cli.Group{Title: title, Flags: s.order, Set: fs, Indent: 4})
	}
	return h
}

// indent wraps a summary under its synopsis.
func indent(s string) string {
	var lines []string
	line := "     "
	for _, w := range strings.Fields(s) {
		if len(line)+1+len(w) > 78 {
			lines = append(lines, line)
			line = "     "
		}
		line += " " + w
	}
	return strings.Join(append(lines, line), "\n")
}

func archiveTopFlags(path *string) *flag.FlagSet {
	fs := cli.NewFlagSet("archive")
	fs.StringVar(path, "archive", "", "`PATH|URL` the archive: an SQLite file or a postgres:// URL (default $GOMB_ARCHIVE, else ~/.local/share/gomb/archive.db)")
	return fs
}

var archiveUsage = helpWriter(archiveHelp, archiveTopFlags(new(string)))

// archiveCmd is one archive subcommand's command line and, once it runs,
// the open archive.
type archiveCmd struct {
	sub            *archiveSub
	stdout, stderr io.Writer
	path           string
	db             *archive.DB

	files []string         // add
	imp   importFlags      // add
	sel   archive.Selector // list, export, history
	ids   []int64          // show, rm
	text  bool             // show -text
	out   string           // export -o
	hist  historyQuery     // history
	src   string           // copy
	dst   string           // copy
}

func parseArchive(args []string) (*archiveCmd, error) {
	c := &archiveCmd{}
	fs := archiveTopFlags(&c.path)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, cli.Usage("archive: %v", strings.TrimPrefix(err.Error(), "flag: "))
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return nil, cli.Usage("archive: no command ('gomb archive -help' lists them)")
	}
	name, rest := rest[0], rest[1:]
	switch name {
	case "help", "-help", "-h":
		return nil, flag.ErrHelp
	}
	for i := range archiveSubs {
		if archiveSubs[i].name == name {
			c.sub = &archiveSubs[i]
		}
	}
	if c.sub == nil {
		return nil, cli.Usage("archive: unknown command %q ('gomb archive -help' lists them)", name)
	}
	sfs := cli.NewFlagSet("archive " + name)
	sfs.StringVar(&c.path, "archive", c.path, "`PATH|URL` the archive") // accepted after the subcommand too
	if c.sub.flags != nil {
		c.sub.flags(c, sfs)
	}
	words, err := cli.ParseInterleaved(sfs, rest)
	if errors.Is(err, flag.ErrHelp) {
		return nil, err
	}
	if err != nil {
		return nil, cli.Usage("archive %s: %v", name, strings.TrimPrefix(err.Error(), "flag: "))
	}
	return c, c.sub.args(c, words)
}

func runArchive(stdout, stderr io.Writer, args []string) error {
	c, err := parseArchive(args)
	if err != nil {
		return helpOr(err, stdout, archiveUsage)
	}
	c.stdout, c.stderr = stdout, stderr
	if c.sub.own {
		return c.sub.run(c)
	}
	path, err := archive.Resolve(c.path)
	if err != nil {
		return err
	}
	if c.db, err = archive.Open(path); err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	defer c.db.Close()
	if c.db.Warning != "" {
		fmt.Fprintln(c.stderr, c.db.Warning)
	}
	return c.sub.run(c)
}

// The subcommands' arguments.

func archiveFiles(c *archiveCmd, words []string) error {
	if len(words) == 0 {
		return cli.Usage("archive add: no file given")
	}
	c.files = words
	return nil
}

func archiveSelection(c *archiveCmd, words []string) (err error) {
	if c.sel, err = archive.ParseSelector(words); err != nil {
		return cli.Usage("archive: %v", err)
	}
	return nil
}

// parseIDs reads run ids.
func parseIDs(words []string) ([]int64, error) {
	var ids []int64
	for _, w := range words {
		id, err := strconv.ParseInt(w, 10, 64)
		if err != nil || id <= 0 {
			return nil, cli.Usage("archive: %q is not a run id", w)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func archiveIDs(c *archiveCmd, words []string) (err error) {
	if c.ids, err = parseIDs(words); err == nil && len(c.ids) == 0 {
		err = cli.Usage("archive rm: give run ids")
	}
	return err
}

func archiveOneID(c *archiveCmd, words []string) (err error) {
	if c.ids, err = parseIDs(words); err == nil && len(c.ids) != 1 {
		err = cli.Usage("archive show: give one run id")
	}
	return err
}

func archiveCopyArgs(c *archiveCmd, words []string) (err error) {
	if len(words) < 2 {
		return cli.Usage("archive copy: give the source and the destination archive")
	}
	c.src, c.dst = words[0], words[1]
	if c.sel, err = archive.ParseSelector(words[2:]); err != nil {
		return cli.Usage("archive copy: %v", err)
	}
	return nil
}

func archiveNoArgs(c *archiveCmd, words []string) error {
	if len(words) > 0 {
		return cli.Usage("archive check takes no arguments")
	}
	return nil
}

// The subcommands that write.

func archiveAdd(c *archiveCmd) error {
	return input.AddFiles(c.db, c.files, c.imp.options(), c.stdout, c.stderr)
}

func archiveRm(c *archiveCmd) error {
	n, err := c.db.Remove(c.ids)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "removed %d runs\n", n)
	if int(n) != len(c.ids) {
		return cli.Usage("archive rm: %d of the ids are not in the archive", len(c.ids)-int(n))
	}
	return nil
}

func archiveExport(c *archiveCmd) error {
	var n int
	err := cli.WriteOutput(c.stdout, "archive export -o", c.out, []string{c.db.Path}, func(w io.Writer) (err error) {
		n, err = c.db.Export(c.sel, w)
		return err
	})
	if err == nil {
		fmt.Fprintf(c.stderr, "exported %d runs\n", n)
	}
	return err
}

func archiveCheck(c *archiveCmd) error {
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

// archiveCopy copies runs between two archives.
func archiveCopy(c *archiveCmd) error {
	src, err := archive.OpenExisting(c.src)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: fmt.Errorf("archive copy: %w", err)}
	}
	defer src.Close()
	dst, err := archive.Open(c.dst)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: fmt.Errorf("archive copy: %w", err)}
	}
	defer dst.Close()
	for _, w := range []string{src.Warning, dst.Warning} {
		if w != "" {
			fmt.Fprintln(c.stderr, w)
		}
	}
	if src.Path == dst.Path {
		return cli.Usage("archive copy: %s is both the source and the destination", src.Path)
	}
	progress := cli.NewCounter(c.stderr, "archive copy", "runs")
	st, err := archive.Copy(src, dst, c.sel, progress.Set)
	progress.Done()
	fmt.Fprintf(c.stderr, "gomb archive: copied %d of %d runs from %s to %s (%d there already)\n",
		st.Added, st.Runs, src.Path, dst.Path, st.Runs-st.Added)
	if err != nil {
		return fmt.Errorf("archive copy: %w", err)
	}
	return nil
}
