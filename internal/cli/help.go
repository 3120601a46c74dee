package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Help is a command's -help text around its flags: how to call it, what
// it does, its flags in groups, what follows them (exit statuses) and
// examples. Write prints every flag from its usage string as registered,
// so that the flag set is the one source of what a flag means; Check
// fails for a flag that has no description or no place in a group.
//
// A usage string starts with the flag's argument in back quotes, unless
// the flag is boolean: "`N` smallest #processes". A flag's default (its
// DefValue, when not empty, 0 or false) is added as "(default N)" unless
// the usage already says "(default".
type Help struct {
	Usage    string  // the synopsis lines, without "Usage: "
	Intro    string  // what the command does (paragraphs, wrapped already)
	Groups   []Group // the flags
	Outro    string  // after the flags: exit statuses, notes
	Examples []string
}

// Group is a titled list of flags. Flags names them in order; "json,o"
// prints two names of one flag on one line. Set, when not nil, is where
// the names are looked up (a subcommand's flags), instead of the flag set
// given to Write. Dashes is what the names are printed after ("-" unless
// given: "--" for the GNU-style flags of mpi-comm-bench; the flag package
// takes either). Indent moves the flags right of the usual two blanks (a
// subcommand's, under its synopsis).
type Group struct {
	Title  string
	Flags  []string
	Set    *flag.FlagSet
	Dashes string
	Indent int
}

// The columns of a flag line.
const (
	specWidth = 22 // "  -npmin N" padded to the description's column (2 + 22)
	lineWidth = 80
)

// Write prints the help for fs.
func (h *Help) Write(w io.Writer, fs *flag.FlagSet) error {
	var b strings.Builder
	for i, u := range strings.Split(strings.TrimSpace(h.Usage), "\n") {
		if i == 0 {
			fmt.Fprintf(&b, "Usage: %s\n", u)
		} else {
			fmt.Fprintf(&b, "       %s\n", strings.TrimSpace(u))
		}
	}
	if h.Intro != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(h.Intro, "\n"))
	}
	for _, g := range h.Groups {
		set := fs
		if g.Set != nil {
			set = g.Set
		}
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(g.Title, "\n"))
		dashes := g.Dashes
		if dashes == "" {
			dashes = "-"
		}
		for _, names := range g.Flags {
			if err := writeFlag(&b, set, dashes, g.Indent, strings.Split(names, ",")); err != nil {
				return err
			}
		}
	}
	if h.Outro != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(h.Outro, "\n"))
	}
	if len(h.Examples) > 0 {
		b.WriteString("\nExamples:\n")
		for _, e := range h.Examples {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFlag prints one flag (under one or more names) and its description.
func writeFlag(b *strings.Builder, fs *flag.FlagSet, dashes string, indent int, names []string) error {
	f := fs.Lookup(names[0])
	if f == nil {
		return fmt.Errorf("help: no flag -%s", names[0])
	}
	arg, desc := SplitUsage(f)
	var specs []string
	for _, n := range names {
		switch {
		case arg == "":
			specs = append(specs, dashes+n)
		case strings.HasPrefix(arg, "[="):
			specs = append(specs, dashes+n+arg) // an optional value: -archive[=PATH]
		default:
			specs = append(specs, dashes+n+" "+arg)
		}
	}
	if d := f.DefValue; d != "" && d != "0" && d != "false" && !strings.Contains(desc, "(default") {
		desc += " (default " + d + ")"
	}
	spec := strings.Repeat(" ", 2+indent) + strings.Join(specs, ", ")
	col := 2 + specWidth + indent // where descriptions start
	lines := wrap(desc, lineWidth-col)
	if len(spec) >= col-1 {
		b.WriteString(spec + "\n")
	} else if len(lines) > 0 {
		fmt.Fprintf(b, "%-*s%s\n", col, spec, lines[0])
		lines = lines[1:]
	}
	for _, l := range lines {
		fmt.Fprintf(b, "%*s%s\n", col, "", l)
	}
	return nil
}

// SplitUsage cuts a flag's usage into the name of its argument (empty for
// a boolean flag) and its description.
func SplitUsage(f *flag.Flag) (arg, desc string) {
	u := strings.TrimSpace(f.Usage)
	if rest, ok := strings.CutPrefix(u, "`"); ok {
		if a, d, ok := strings.Cut(rest, "`"); ok {
			return a, strings.TrimSpace(d)
		}
	}
	return "", u
}

// wrap breaks text into lines of at most width characters (longer words
// stand alone); blank-separated words, newlines kept as breaks.
func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
				lines = append(lines, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	return lines
}

// Check reports what Write would leave out or print without meaning: a
// flag with no description, a non-boolean flag whose usage names no
// argument, a flag in no group (or in two), a name that is no flag.
func (h *Help) Check(fs *flag.FlagSet) error {
	var errs []error
	shown := map[*flag.FlagSet]map[string]int{}
	for _, g := range h.Groups {
		set := fs
		if g.Set != nil {
			set = g.Set
		}
		if shown[set] == nil {
			shown[set] = map[string]int{}
		}
		for _, names := range g.Flags {
			for _, n := range strings.Split(names, ",") {
				if set.Lookup(n) == nil {
					errs = append(errs, fmt.Errorf("group %q names -%s, which is no flag", firstLine(g.Title), n))
				}
				shown[set][n]++
			}
		}
	}
	if shown[fs] == nil {
		shown[fs] = map[string]int{}
	}
	for set, seen := range shown {
		set.VisitAll(func(f *flag.Flag) {
			arg, desc := SplitUsage(f)
			switch {
			case desc == "":
				errs = append(errs, fmt.Errorf("-%s has no description", f.Name))
			case arg == "" && !isBool(f):
				errs = append(errs, fmt.Errorf("-%s takes a value but its usage names none (start it with `ARG`)", f.Name))
			}
			if seen[f.Name] != 1 {
				errs = append(errs, fmt.Errorf("-%s is shown %d times in the help (want once)", f.Name, seen[f.Name]))
			}
		})
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
