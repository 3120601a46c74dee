package session

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// Progress shows a sweep's progress as one status line on stderr: when
// asked (-progress), or when stderr is a terminal and the table goes
// elsewhere (a file or a pipe). Under mpirun or mpiexec a rank's stderr is
// a pipe to the launcher, so there it takes -progress.
//
// It is a few lines of its own rather than a progress-bar library: the
// libraries available pull in net/http and friends, which cost a measuring
// rank about a megabyte of resident memory.
type Progress struct {
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

// Progress starts rank 0's progress line over total steps; nil when it is
// not shown. The end record clears it.
func (s *Session) Progress(total int) *Progress {
	stderr, table := s.stderr, s.out.text
	auto := isTerminal(stderr) && !isTerminal(table)
	if total <= 0 || stderr == table || !(s.cmd.Flags.Progress || auto) {
		return nil
	}
	p := &Progress{w: stderr, total: total, start: time.Now()}
	s.out.prog = p
	return p
}

// Step counts one finished size of a benchmark and redraws the line.
func (p *Progress) Step(name string, np int, size int64, hasSize bool) {
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

// Grow adds n steps to the total (a benchmark run again).
func (p *Progress) Grow(n int) {
	if p != nil {
		p.total += n
	}
}

func (p *Progress) finish() {
	if p != nil && p.width > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.width, "")
	}
}
