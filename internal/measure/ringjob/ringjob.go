// Package ringjob is the ring monitor's part of a measuring job
// (internal/measure): a Monitor, which runs until a signal or its sample
// count stops it, keeps the straggler tracker, the OpenMetrics file and
// the summary.
package ringjob

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/bench/ringrun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

// Suite is the ring monitor's part of a measuring job.
type Suite struct {
	opt  *ring.Options
	prom string // --prom's file ("": none)
	mon  *ringrun.Monitor
}

// New is the monitor of options opt, keeping --prom's file prom.
func New(opt *ring.Options, prom string) *Suite { return &Suite{opt: opt, prom: prom} }

var (
	_ measure.Suite[*ringtext.Writer] = (*Suite)(nil)
	_ measure.Monitor                 = (*Suite)(nil)
)

// Monitor marks the ring as a monitor: a signal stops it between samples.
func (u *Suite) Monitor() {}

// Text is mpi-comm-bench's layout.
func (u *Suite) Text(out io.Writer) *ringtext.Writer { return ringtext.NewWriter(out) }

// Prepare refuses --mem-copy-local beside other ranks and a --prom file
// that cannot be written, and makes the monitor, on the GPU --gpu names.
func (u *Suite) Prepare(s *session.Session) (any, error) {
	o := u.opt
	if o.MemCopyLocal && s.Size != 1 {
		return nil, cli.Usage("--mem-copy-local needs exactly one process, %d started", s.Size)
	}
	u.mon = &ringrun.Monitor{Opt: *o, World: s.World, Fault: s.Fault}
	if o.GPU {
		dev, err := s.OpenDevice("--gpu", true)
		if err != nil {
			return nil, err
		}
		u.mon.Device = dev
	}
	if err := s.Agree(func() string { return checkProm(u.prom) }); err != nil {
		return nil, err
	}
	return o, nil
}

// Start writes the header and wires the monitor: every sample is a
// record and a line (rank 0), and rewrites --prom's file.
func (u *Suite) Start(e *measure.Env[*ringtext.Writer]) (*measure.Job, error) {
	s, o, mon, text, hosts := e.Session, u.opt, u.mon, e.Text, e.Hosts
	mon.Stop, mon.Wait, mon.Watch = e.Stopping, e.Wait, s.Watch(0)
	var tracker *ring.Tracker
	if s.Rank == 0 {
		tracker = ring.NewTracker(o.MsgSize)
	}
	if err := e.Preamble(func(w *ringtext.Writer) error { return w.Header(*o) }); err != nil {
		return nil, err
	}
	var stopped bool
	var sum ring.Summary // rank 0's, once the monitor has stopped
	sample := func(smp ring.Sample) error {
		tracker.Add(smp)
		r := ring.Record(s.RunID(), o.MsgSize, smp, hosts)
		if err := s.Result(r, func(*result.Result) error { return text.Sample(smp) }); err != nil {
			return err
		}
		if u.prom != "" {
			return ringtext.Prom(u.prom, smp, tracker.Summary(hosts), o.MsgSize, hosts)
		}
		return nil
	}
	return &measure.Job{Sweep: session.Sweep{
		Run: func() (n int, err error) {
			stopped, err = mon.Run(sample)
			if err == nil && tracker != nil {
				sum = tracker.Summary(hosts)
			}
			return 0, err
		},
		// the summary, and the end: complete, or interrupted when the
		// ranks agreed to stop on a signal (rank 0's own may not have
		// come yet when another rank's did)
		Footer: func() error { return text.Summary(sum, s.Size) },
		End: func() (string, any) {
			if stopped {
				return result.EndInterrupted, sum
			}
			return result.EndComplete, sum
		},
	}}, nil
}

// checkProm says what is wrong with --prom FILE, before the first sample.
func checkProm(path string) string {
	if path == "" {
		return ""
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Sprintf("--prom %s is a directory", path)
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return fmt.Sprintf("--prom: %v", err)
	}
	return ""
}
