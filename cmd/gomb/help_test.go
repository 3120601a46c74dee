package main

import (
	"bytes"
	"strings"
	"testing"
)

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
