package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the help blocks of the documentation")

// TestHelp: every flag of every command has a description, names its
// argument, and is shown exactly once in the command's help; the help
// names no flag that does not exist.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		if c.usage == nil {
			continue
		}
		if err := c.usage.help().Check(c.usage.fs); err != nil {
			t.Errorf("gomb %s -help:\n%v", c.name, err)
		}
		var b bytes.Buffer
		c.usage.write(&b)
		if !strings.Contains(b.String(), "Usage: ") {
			t.Errorf("gomb %s -help has no usage line:\n%s", c.name, b.String())
		}
	}
}

// docFiles are the documentation files: the README and docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	return append(files, filepath.Join("..", "..", "README.md"))
}

// helpBlock is a command's help as the documentation carries it, between
// <!-- help NAME --> and <!-- end help -->.
var helpBlock = regexp.MustCompile("(?s)(<!-- help ([a-z]+(?:-[a-z0-9]+)?) -->\n).*?(<!-- end help -->)")

// TestHelpInDocs: the flags the documentation lists are the binary's: each
// help block is the command's -help, as generated (go test -update
// rewrites the blocks).
func TestHelpInDocs(t *testing.T) {
	blocks := 0
	regenerateBlocks(t, helpBlock, "a help block is not the command's -help", "TestHelpInDocs", func(f string, sub [][]byte) string {
		blocks++
		name := string(sub[2])
		var b bytes.Buffer
		for _, c := range commands {
			if c.name == name && c.usage != nil {
				c.usage.write(&b)
			}
		}
		if b.Len() == 0 {
			t.Errorf("%s: help block of %q, which is no command with flags", f, name)
		}
		return "```text\n" + b.String() + "```\n"
	})
	if blocks == 0 {
		t.Error("the documentation has no help block")
	}
}

// regenerateBlocks holds every documentation block re matches (its first
// group the opening marker, its last the closing one) to what body makes
// of it; go test -update rewrites the blocks that differ.
func regenerateBlocks(t *testing.T, re *regexp.Regexp, wrong, test string, body func(file string, sub [][]byte) string) {
	t.Helper()
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fixed := re.ReplaceAllFunc(data, func(m []byte) []byte {
			sub := re.FindSubmatch(m)
			return []byte(string(sub[1]) + body(f, sub) + string(sub[len(sub)-1]))
		})
		if bytes.Equal(fixed, data) {
			continue
		}
		if *update {
			if err := os.WriteFile(f, fixed, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: %s (go test ./cmd/gomb -run %s -update)", f, wrong, test)
	}
}

// TestDocExamples: every gomb command line in the documentation's code
// blocks and in the commands' -help examples is one the command accepts
// (its flags exist and take what they are given; the arguments are of the
// right kind). Nothing runs: what the examples measure or read is
// checked by the tests of each command.
func TestDocExamples(t *testing.T) {
	var examples []example
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, codeExamples(f, string(data))...)
	}
	for _, c := range commands {
		if c.usage != nil {
			for _, e := range c.usage.help().Examples {
				examples = append(examples, example{"gomb " + c.name + " -help", e})
			}
		}
	}
	checked := map[string]int{}
	for _, e := range examples {
		args := gombArgs(e.line)
		if args == nil {
			continue
		}
		name := args[0]
		if name == "help" {
			continue
		}
		var cmd *command
		for i := range commands {
			if commands[i].name == name {
				cmd = &commands[i]
			}
		}
		if cmd == nil {
			t.Errorf("%s: %q: no command %q", e.where, e.line, name)
			continue
		}
		checked[name]++
		if err := cmd.parse(args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %q: %v", e.where, e.line, err)
		}
	}
	n := 0
	for _, c := range commands {
		if c.usage != nil && checked[c.name] == 0 {
			t.Errorf("no example of gomb %s in the documentation", c.name)
		}
		n += checked[c.name]
	}
	t.Logf("%d command lines parsed", n)
}

// example is a command line and where it stands.
type example struct{ where, line string }

// codeExamples are the lines of the shell code blocks (```sh) of a
// Markdown file, continuation lines joined.
func codeExamples(file, text string) []example {
	var out []example
	in := false
	cont := ""
	for i, l := range strings.Split(text, "\n") {
		if fence, ok := strings.CutPrefix(strings.TrimSpace(l), "```"); ok {
			in = !in && fence == "sh"
			continue
		}
		if !in {
			continue
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cont += s + " "
			continue
		}
		out = append(out, example{file + ":" + strconv.Itoa(i+1), cont + l})
		cont = ""
	}
	return out
}

// gombArgs are the arguments after the gomb binary in a shell line (the
// subcommand first), up to a redirection, a pipe or a comment; nil when
// the line runs no gomb. The binary is a word gomb or gomb-mpich (in any
// directory) followed by a lower-case word, the subcommand.
func gombArgs(line string) []string {
	words := shellWords(line)
	for i, w := range words {
		if strings.Contains(w, "=") {
			continue // an assignment (GOMB=bin/gomb sbatch ...), not the command
		}
		base := filepath.Base(w)
		if (base == "gomb" || base == "gomb-mpich") && i+1 < len(words) && subcommand.MatchString(words[i+1]) {
			var args []string
			for _, a := range words[i+1:] {
				if a == "|" || a == "&&" || a == ";" || strings.HasPrefix(a, ">") || strings.HasPrefix(a, "<") ||
					strings.HasPrefix(a, "2>") || strings.HasPrefix(a, "#") {
					break
				}
				args = append(args, a)
			}
			if len(args) > 0 {
				return args
			}
		}
	}
	return nil
}

var subcommand = regexp.MustCompile(`^[a-z]+(-[a-z0-9]+)?$`)

// shellWords splits a line as sh would, for the quoting documentation
// uses: blanks separate words, '...' and "..." group them, # at the start
// of a word begins a comment.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	quote := rune(0)
	inWord := false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// exitBlock is a rendering of cli.Statuses in the documentation: the
// README's one-line list between <!-- exit statuses --> and <!-- end exit
// statuses -->, campaigns.md's table between <!-- exit table --> and <!--
// end exit table -->.
var exitBlock = regexp.MustCompile("(?s)(<!-- exit (statuses|table) -->\n).*?(<!-- end exit (?:statuses|table) -->)")

// TestExitStatusesInDocs: the exit statuses the documentation lists are
// internal/cli's, rendered (go test -update rewrites the blocks); the
// README and campaigns.md carry them.
func TestExitStatusesInDocs(t *testing.T) {
	found := map[string]bool{}
	regenerateBlocks(t, exitBlock, "an exit-status block is not internal/cli's", "TestExitStatusesInDocs", func(f string, sub [][]byte) string {
		found[filepath.Base(f)+" "+string(sub[2])] = true
		if string(sub[2]) == "table" {
			return cli.ExitTable()
		}
		return cli.ExitSummary() + "\n"
	})
	for _, want := range []string{"README.md statuses", "campaigns.md table"} {
		if !found[want] {
			t.Errorf("no exit-status block in %s", want)
		}
	}
}
