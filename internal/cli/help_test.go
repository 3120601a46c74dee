package cli

import (
	"flag"
	"strings"
	"testing"
)

func testFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Int("npmin", 2, "`N` smallest #processes; then doubling up to all started")
	var out string
	fs.StringVar(&out, "json", "", "`FILE` write the records; '-' is stdout, and the table then goes to stderr")
	fs.StringVar(&out, "o", "", "`FILE` write the records; '-' is stdout, and the table then goes to stderr")
	fs.Bool("check", false, "validate every received buffer")
	fs.String("iter_policy", "dynamic", "`dynamic|off|multiple_np|auto|precision` how many repetitions a size gets")
	return fs
}

func TestHelpWrite(t *testing.T) {
	h := &Help{
		Usage:    "gomb t [flags] NAME...\ngomb t -list",
		Intro:    "Does t.",
		Groups:   []Group{{Title: "Flags:", Flags: []string{"npmin", "json,o", "check", "iter_policy"}}},
		Outro:    "Exit status: 0.",
		Examples: []string{"gomb t x"},
	}
	var b strings.Builder
	if err := h.Write(&b, testFlags()); err != nil {
		t.Fatal(err)
	}
	// the description column is 24: 2 blanks and 22 for the flag; a flag
	// too long for it puts its description on the next line
	want := `Usage: gomb t [flags] NAME...
       gomb t -list

Does t.

Flags:
  -npmin N              smallest #processes; then doubling up to all started
                        (default 2)
  -json FILE, -o FILE   write the records; '-' is stdout, and the table then
                        goes to stderr
  -check                validate every received buffer
  -iter_policy dynamic|off|multiple_np|auto|precision
                        how many repetitions a size gets (default dynamic)

Exit status: 0.

Examples:
  gomb t x
`
	if got := b.String(); got != want {
		t.Errorf("help:\n%s\nwant:\n%s", got, want)
	}
}

func TestHelpCheck(t *testing.T) {
	fs := testFlags()
	fs.Int("quiet", 0, "")                 // no description
	fs.Int("bare", 0, "a count of things") // no argument named
	h := &Help{Groups: []Group{{Title: "Flags:", Flags: []string{"npmin", "json,o", "check", "check", "nope", "quiet", "bare"}}}}
	err := h.Check(fs)
	if err == nil {
		t.Fatal("Check passed a help with faults")
	}
	for _, want := range []string{
		"-quiet has no description",
		"-bare takes a value but its usage names none",
		"-check is shown 2 times",
		"-iter_policy is shown 0 times",
		"names -nope, which is no flag",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check: %v\nwant it to say %q", err, want)
		}
	}
	good := &Help{Groups: []Group{{Title: "Flags:", Flags: []string{"npmin", "json,o", "check", "iter_policy"}}}}
	if err := good.Check(testFlags()); err != nil {
		t.Errorf("Check of a complete help: %v", err)
	}
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"averyveryverylongword x", 5, []string{"averyveryverylongword", "x"}},
		{"one\ntwo three", 20, []string{"one", "two three"}},
	} {
		if got := wrap(c.in, c.width); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
