package main

import (
	"flag"
	"fmt"
	"testing"
)

// TestNumericFlags walks every flag of every command (a subcommand's too)
// and gives each a number that is not one: NaN, an infinity, a value past
// float64, trailing garbage. A flag that refuses a plain word is a number
// (or a word list) and must refuse these too; one that takes any word is
// text (a file, a label) and is left alone. No flag is one of the flag
// package's numbers, which check no range.
func TestNumericFlags(t *testing.T) {
	bad := []string{"NaN", "nan", "Inf", "-Inf", "+Inf", "infinity", "1e400", "-1e400", "0.5x", "5x", "1.5.2", "5,", "0x"}
	seen, numbers := 0, 0
	walk := func(cmd string, fs *flag.FlagSet) {
		fs.VisitAll(func(f *flag.Flag) {
			seen++
			switch ty := fmt.Sprintf("%T", f.Value); ty {
			case "*flag.intValue", "*flag.int64Value", "*flag.uintValue", "*flag.uint64Value", "*flag.float64Value", "*flag.durationValue":
				// NaN, 0x10, -5 where no count may be negative: the
				// flag package checks no range
				t.Errorf("gomb %s -%s is a %s: use internal/cli's Int, Float or AtLeast", cmd, f.Name, ty)
			}
			if f.Value.Set("no-such-word") == nil {
				return // text
			}
			numbers++
			for _, v := range bad {
				if err := f.Value.Set(v); err == nil {
					t.Errorf("gomb %s -%s %q: accepted", cmd, f.Name, v)
				}
			}
		})
	}
	for _, c := range commands {
		if c.usage == nil {
			continue
		}
		walk(c.name, c.usage.fs)
		for _, g := range c.usage.help().Groups {
			if g.Set != nil {
				walk(c.name+" ("+g.Title+")", g.Set)
			}
		}
	}
	t.Logf("%d flags, %d of them numbers or words from a list", seen, numbers)
}
