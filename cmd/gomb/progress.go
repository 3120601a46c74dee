package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"golang.org/x/term"
)

// progress shows a sweep's progress as one status line on stderr: when
// asked (-progress), or when stderr is a terminal and the table goes
// elsewhere (a file or a pipe). Under mpirun or mpiexec a rank's stderr is a
// pipe to the launcher, so there it takes -progress.
//
// It is a few lines of its own rather than a progress-bar library: the
// libraries available pull in net/http and friends, which cost a measuring
// rank about a megabyte of resident memory.
type progress struct {
	w     io.Writer
	total int
	done  int
	start time.Time
	width int
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newProgress(stderr, table io.Writer, total int, force bool) *progress {
	auto := isTerminal(stderr) && !isTerminal(table)
	if total <= 0 || stderr == table || !(force || auto) {
		return nil
	}
	return &progress{w: stderr, total: total, start: time.Now()}
}

// Size implements imb.Progress.
func (p *progress) Size(s *imb.Spec, np int, size int64, done, total int) {
	p.step(s.Name, np, size, s.HasSize())
}

// step counts one finished size of a benchmark and redraws the line.
func (p *progress) step(name string, np int, size int64, hasSize bool) {
	p.done++
	line := fmt.Sprintf("gomb %3d%% [%d/%d] %s np=%d", 100*p.done/p.total, p.done, p.total, name, np)
	if hasSize {
		line += fmt.Sprintf(" %d B", size)
	}
	if el := time.Since(p.start); p.done > 0 && p.done < p.total {
		left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		line += fmt.Sprintf(", %s elapsed, ~%s left", el.Round(time.Second), left.Round(time.Second))
	}
	pad := max(0, p.width-len(line))
	p.width = len(line)
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
}

func (p *progress) finish() {
	if p != nil && p.width > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.width, "")
	}
}
