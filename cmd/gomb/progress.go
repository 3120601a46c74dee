package main

import (
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gomb-hpc/gomb/bench"
)

// progress shows a sweep's progress on stderr when stderr is a terminal and
// the table goes elsewhere (a file or a pipe); otherwise the table itself is
// the progress and nothing extra is drawn.
type progress struct {
	bar *progressbar.ProgressBar
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newProgress(stderr, table io.Writer, total int) *progress {
	if total <= 0 || !isTerminal(stderr) || isTerminal(table) || stderr == table {
		return nil
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("gomb"),
	)
	return &progress{bar: bar}
}

// Size implements bench.Progress.
func (p *progress) Size(s *bench.Spec, np int, size int64, done, total int) {
	desc := fmt.Sprintf("%-22s np=%-4d", s.Name, np)
	if s.HasSize() {
		desc += fmt.Sprintf(" %9d B", size)
	}
	p.bar.Describe(desc)
	_ = p.bar.Add(1)
}

func (p *progress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}
