// Package osujob is OSU's part of a measuring job (internal/measure): one
// test (One), or several in one job (Many, many.go); what keeps a test from
// running in this job, the layouts of the fan and neighbourhood tests,
// -D indx's file, -c log's directory, the sink of rows and -G's graphs.
package osujob

import (
	"fmt"
	"io"
	"os"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/osurun"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/measure"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/report"
	"github.com/gomb-hpc/gomb/internal/session"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"golang.org/x/term"
)

// One is a job of one OSU test.
type One struct {
	opt *osu.Options
	sp  *osu.Spec
	eng *osurun.Engine
}

// NewOne is the job of test sp with options opt (checked against it).
func NewOne(opt *osu.Options, sp *osu.Spec) *One { return &One{opt: opt, sp: sp} }

var _ measure.Suite[*osutext.Writer] = (*One)(nil)

// Text is OSU's table layout.
func (u *One) Text(out io.Writer) *osutext.Writer { return osutext.NewWriter(out) }

// Prepare reads -D indx's file, refuses an existing -c log directory and
// what keeps the test from running here, and opens -d cuda's device.
func (u *One) Prepare(s *session.Session) (any, error) {
	sp, o := u.sp, u.opt
	if err := readIndexed(s, o); err != nil {
		return nil, err
	}
	if err := freshLogDir(s, o); err != nil {
		return nil, err
	}
	if err := runnable(s, sp, o); err != nil {
		return nil, err
	}
	u.eng = &osurun.Engine{Opt: *o, World: s.World, RunID: s.RunID(), Fault: s.Fault}
	if o.Device != "" {
		dev, err := s.OpenDevice("-d cuda", s.Rank < 2 && o.Place[s.Rank] == 'D')
		if err != nil {
			return nil, err
		}
		u.eng.Device = dev
	}
	return map[string]any{"test": sp.Name, "options": o}, nil
}

// Start lays the fan and neighbourhood tests out and wires the engine.
func (u *One) Start(e *measure.Env[*osutext.Writer]) (*measure.Job, error) {
	s, sp, o, eng := e.Session, u.sp, u.opt, u.eng
	eng.Watch, eng.Hosts = s.Watch(0), e.Hosts
	if err := fanLayout(s, eng, sp); err != nil {
		return nil, err
	}
	if err := nbrLayout(s, eng, sp); err != nil {
		return nil, err
	}
	if s.Rank == 0 {
		eng.Sink = sink{s, e.Text, o}
		if p := s.Progress(len(o.Sizes(sp, s.Size))); p != nil {
			eng.Progress = func(size int64, done, total int) { p.Step(sp.Name, s.Size, size, !sp.NoSize) }
		}
	}
	return &measure.Job{Sweep: session.Sweep{Run: func() (int, error) { return sweep(s, eng, sp) },
		FailMsg: "-c: %d sizes failed validation"}}, nil
}

// sweep runs one test: its sizes, or the start-up tests' one line.
func sweep(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (int, error) {
	if sp.Kind == osu.Startup {
		return 0, eng.Startup(sp, s.InitTook())
	}
	sum, err := eng.Run(sp)
	return sum.ValidationFailed, err
}

// runnable says what keeps sp from running in this job with options o
// (checked against sp already): the process count, the thread level, the
// MPI library's persistent collectives, a known defect of the library.
func runnable(s *session.Session, sp *osu.Spec, o *osu.Options) error {
	if err := o.CheckWorld(sp, s.Size); err != nil {
		return cli.Usage("%v", err)
	}
	if sp.Threads && s.Provided() != kernel.ThreadMultiple {
		return fmt.Errorf("%s needs MPI_THREAD_MULTIPLE; MPI_Init_thread gave %s", sp.Name, s.Provided())
	}
	if sp.Job.Persist && sp.Kind == osu.Collective && !mpi.PersistentCollectives() {
		return cli.Usage("%s: this MPI library lacks MPI-4 persistent collectives (MPI_<op>_init; Open MPI 4 has them as MPIX_<op>_init in its pcollreq extension)", sp.Name)
	}
	if why := mpi.CollectiveDefect(sp.Job, s.Size); why != "" {
		return cli.Usage("%s: %s", sp.Name, why)
	}
	if sp.Job.Kernel == kernel.RMA {
		p, win := sp.Job, sp.Win
		p.Type = o.ElemType(sp)
		if o.WinSet {
			win = o.Win
		}
		if why := mpi.Defect(p, win, s.World.OneNode()); why != "" {
			return cli.Usage("%s: %s", sp.Name, why)
		}
	}
	return nil
}

// fanLayout lays the fan tests' ranks out over the hosts rank 0 knows
// (eng.Hosts), every rank alike.
func fanLayout(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (err error) {
	if sp.IsFan() {
		if eng.Fan, err = osurun.FanLayout(s.World, eng.Hosts); err != nil {
			return cli.Usage("%s: %v", sp.Name, err)
		}
	}
	return nil
}

// nbrLayout makes the neighbourhood collectives' graph, every rank alike.
func nbrLayout(s *session.Session, eng *osurun.Engine, sp *osu.Spec) (err error) {
	if sp.Neighbour() {
		if eng.Nbr, err = osurun.NeighbourLayout(s.World, *eng.Opt.Topology); err != nil {
			return cli.Usage("%s: %v", sp.Name, err)
		}
	}
	return nil
}

// freshLogDir refuses -c log's directory where it exists already, as OSU
// 7.4 does (rank 0's view), so that one run's log is never mixed into
// another's.
func freshLogDir(s *session.Session, o *osu.Options) error {
	if o.ValidationLog == "" {
		return nil
	}
	return s.Agree(func() string {
		if _, err := os.Stat(o.ValidationLog); err == nil {
			return fmt.Sprintf("-c log: %q already exists: name a new directory with -clog:DIR", o.ValidationLog)
		}
		return ""
	})
}

// readIndexed reads -D indx's file on rank 0 into the options, every rank
// alike (CheckWorld then checks that the type fits the messages).
func readIndexed(s *session.Session, o *osu.Options) error {
	d := o.DDT
	if d == nil || d.Kind != "indx" {
		return nil
	}
	data, err := osurun.ReadOnRoot(s.World, d.File)
	if err != nil {
		return cli.Usage("-D %s: %v", d, err)
	}
	if d.Displs, d.Lens, _, err = osu.IndexedBlocks(data, d.File); err != nil {
		return cli.Usage("%v", err)
	}
	return nil
}

// sink is rank 0's osurun.Sink: OSU's text plus records, and -G's graphs.
type sink struct {
	s    *session.Session
	text *osutext.Writer
	opt  *osu.Options
}

func (k sink) Table(t *osu.Table) error {
	return k.s.Locked(func() error { return k.text.Table(t) })
}

func (k sink) Result(r *result.Result) error { return k.s.Result(r, k.text.Result) }

// Graphs draws -G's graphs: on the terminal (tty) under the table, as
// PNG files osu_TEST-SIZE.png in the working directory (png), as OSU names
// them; a comment line says which files.
func (k sink) Graphs(gs []osu.Graph) error {
	o := k.opt
	if o.GraphOn("tty") {
		width := 80
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			width = w
		}
		if err := k.s.Locked(func() error { return k.text.Graphs(gs, width) }); err != nil {
			return err
		}
	}
	if !o.GraphOn("png") {
		return nil
	}
	var names []string
	for _, g := range gs {
		name := fmt.Sprintf("osu_%s-%d", g.Test, g.Bytes)
		p, err := report.IterationPlot(name, fmt.Sprintf("osu_%s  Size: %d, Avg: %.2f", g.Test, g.Bytes, g.Avg), g.Unit, g.Values)
		if err != nil {
			return err
		}
		if err := os.WriteFile(name+".png", p.PNG, 0o644); err != nil {
			return fmt.Errorf("-G png: %w", err)
		}
		names = append(names, name+".png")
	}
	return k.s.Locked(func() error {
		return k.text.Comment(fmt.Sprintf("-G png: %d graphs written: %s ... %s", len(names), names[0], names[len(names)-1]))
	})
}
