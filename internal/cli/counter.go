package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// Counter is a count of steps done on one line of a terminal ("archive
// copy: 120/10000 runs"), redrawn at most ten times a second, and cleared
// by Done; where its writer is not a terminal (a log, a pipe) it writes
// nothing.
type Counter struct {
	w          io.Writer // nil: not a terminal
	what, unit string
	last       time.Time
	shown      bool
}

// NewCounter is a Counter on w.
func NewCounter(w io.Writer, what, unit string) *Counter {
	c := &Counter{what: what, unit: unit}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		c.w = w
	}
	return c
}

// Set shows done of total.
func (c *Counter) Set(done, total int) {
	if c.w == nil || done < total && time.Since(c.last) < 100*time.Millisecond {
		return
	}
	c.last = time.Now()
	fmt.Fprintf(c.w, "\r%s: %d/%d %s", c.what, done, total, c.unit)
	c.shown = true
}

// Done clears the line.
func (c *Counter) Done() {
	if c.shown {
		fmt.Fprint(c.w, "\r\033[K")
		c.shown = false
	}
}
