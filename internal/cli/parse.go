package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// NewFlagSet is a gomb command's flag set; its errors and help are the
// command's to print.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("gomb "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// ParseFlags parses flags and positional arguments in any order. -help
// returns flag.ErrHelp; a bad flag, a usage error that names the
// command's help.
func ParseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := ParseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, err
	case err != nil:
		msg := strings.TrimPrefix(err.Error(), "flag: ")
		if m := boolValue.FindStringSubmatch(msg); m != nil {
			// a flag that may stand alone (-z, -c) with a value it refuses:
			// the flag package calls that a boolean, which misleads
			msg = fmt.Sprintf("-%s %s: %s", m[2], m[1], m[3])
		}
		return nil, Usage("%s ('%s -help' lists the flags)", msg, fs.Name())
	}
	return pos, nil
}

// boolValue is the flag package's error for a value a flag that may stand
// alone refuses.
var boolValue = regexp.MustCompile(`^invalid boolean value (".*") for -(\S+): (.*)$`)

// ParseCommand parses the flags and arguments of a command that needs no
// MPI. -help returns flag.ErrHelp; a bad flag, a usage error that starts
// with the command's name.
func ParseCommand(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := ParseInterleaved(fs, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, Usage("%s: %v", strings.TrimPrefix(fs.Name(), "gomb "), strings.TrimPrefix(err.Error(), "flag: "))
	}
	return pos, err
}
