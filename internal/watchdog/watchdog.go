// Package watchdog ends a measurement that stopped making progress: an MPI
// call that does not return (a link that stays down, a peer that hangs)
// would otherwise keep a job spinning until the kernel's TCP timeouts, or
// for good. Each rank runs one Dog. The engines tell it what runs (Enter:
// benchmark, process count, size); a size gets a deadline, and the whole
// run may have one; when one passes, the Dog calls its fire function once,
// with a Report that says what was in flight. The Dog itself never calls
// MPI: firing (printing, closing the records, MPI_Abort) is the caller's.
//
// The Dog sleeps on one timer set to the next deadline: no periodic wake-up
// runs beside a timed loop (with the ranks bound to cores, a runtime
// thread that wakes shares the measuring thread's core).
package watchdog

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Config sets the deadlines.
type Config struct {
	// Size is a fixed deadline per size; 0 derives it (Floor, Budget and
	// the previous size's duration); negative turns the per-size deadline
	// off.
	Size time.Duration
	// Floor is the least a size gets when derived (60 s if 0).
	Floor time.Duration
	// Budget is added to a derived deadline: the benchmark's own time
	// budget per size (IMB's -time).
	Budget time.Duration
	// Run is the deadline of the whole run (0: none).
	Run time.Duration
}

// Phase is what a rank is doing.
type Phase struct {
	Bench string
	NP    int
	Bytes int64
	What  string // "" for a measured size; "setup", "finalize", ...
	Ranks []int  // the world ranks taking part, where known
	Idle  bool   // waiting on purpose (the ring's interval): no deadline but the run's
	// Limit is this phase's own fixed deadline (a step such as
	// MPI_Finalize that must be quick whatever the sizes; a shorter fixed
	// Config.Size still applies); 0: the size rule.
	Limit time.Duration
}

func (p Phase) String() string {
	if p.Bench == "" {
		return p.What
	}
	s := fmt.Sprintf("%s, np %d, %d bytes", p.Bench, p.NP, p.Bytes)
	if p.What != "" {
		s = p.What + " of " + s
	}
	return s
}

// Report says what was in flight when a deadline passed.
type Report struct {
	Phase    Phase
	InFlight time.Duration // how long the phase had run
	Limit    time.Duration // the deadline that passed
	Run      bool          // the whole-run deadline, not the size's
	Elapsed  time.Duration // since the run started
}

func (r Report) String() string {
	if r.Run {
		return fmt.Sprintf("the run passed its deadline of %v (%s in flight for %v)", r.Limit, r.Phase, r.InFlight.Round(100*time.Millisecond))
	}
	return fmt.Sprintf("%s in flight for %v, past its deadline of %v", r.Phase, r.InFlight.Round(100*time.Millisecond), r.Limit.Round(100*time.Millisecond))
}

// Dog watches one rank.
type Dog struct {
	cfg  Config
	fire func(Report)
	now  func() time.Time

	mu       sync.Mutex
	start    time.Time
	phase    Phase
	shown    Phase // what a report says runs: phase, or what Note said since
	since    time.Time
	limit    time.Duration // of the current phase; <= 0 none
	prev     Phase         // the last measured size, and how long it took
	prevDur  time.Duration
	fired    bool
	timer    *time.Timer // set to the next deadline; nil before Start
	stopped  chan struct{}
	stopOnce sync.Once
}

// slack lets a deadline have passed, not just arrived, when the timer fires.
const slack = time.Millisecond

// New makes a Dog that calls fire once when a deadline passes.
func New(cfg Config, fire func(Report)) *Dog {
	if cfg.Floor == 0 {
		cfg.Floor = time.Minute
	}
	return &Dog{cfg: cfg, fire: fire, now: time.Now, stopped: make(chan struct{})}
}

// Start begins watching; the run's clock starts now.
func (d *Dog) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.start = d.now()
	d.since = d.start
	d.phase = Phase{What: "setup"}
	d.shown = d.phase
	d.limit = d.sizeLimit(Phase{What: "setup"})
	d.timer = time.AfterFunc(time.Hour, d.wake)
	d.arm()
}

// arm sets the timer to the nearer of the phase's and the run's deadline,
// or stops it when there is none. d.mu must be held.
func (d *Dog) arm() {
	if d.timer == nil || d.fired {
		return
	}
	now := d.now()
	var due time.Duration
	have := false
	if d.limit > 0 {
		due, have = d.since.Add(d.limit).Sub(now), true
	}
	if d.cfg.Run > 0 {
		if r := d.start.Add(d.cfg.Run).Sub(now); !have || r < due {
			due, have = r, true
		}
	}
	if !have {
		d.timer.Stop()
		return
	}
	d.timer.Reset(max(due, 0) + slack)
}

// wake runs when the timer fires: report a passed deadline, or set the
// timer again (the phase moved on meanwhile).
func (d *Dog) wake() {
	select {
	case <-d.stopped:
		return
	default:
	}
	if r, ok := d.check(); ok {
		d.fire(r)
		return
	}
	d.mu.Lock()
	d.arm()
	d.mu.Unlock()
}

// Stop ends watching; a fire in progress is not undone.
func (d *Dog) Stop() {
	d.stopOnce.Do(func() {
		close(d.stopped)
		d.mu.Lock()
		if d.timer != nil {
			d.timer.Stop()
		}
		d.mu.Unlock()
	})
}

// Enter starts a phase: a size of a benchmark, or a named step.
func (d *Dog) Enter(p Phase) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.now()
	if d.phase.Bench != "" && d.phase.What == "" {
		d.prev, d.prevDur = d.phase, t.Sub(d.since)
	}
	d.phase, d.shown, d.since = p, p, t
	d.limit = d.sizeLimit(p)
	d.arm()
}

// Note changes what a report would say runs, keeping the phase's clock
// and deadline: a step inside a phase that ends with the others' (a
// pair's loop in its round of gomb fleet), or what a rank that waits for
// others knows of them.
func (d *Dog) Note(p Phase) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.shown = p
}

// sizeLimit is the deadline of a phase: fixed, or the floor and budget
// plus ten times what the previous size of the same benchmark took,
// scaled up by the growth in bytes.
func (d *Dog) sizeLimit(p Phase) time.Duration {
	switch {
	case d.cfg.Size < 0 || p.Idle:
		return 0
	case p.Limit > 0 && d.cfg.Size > 0:
		return min(p.Limit, d.cfg.Size)
	case p.Limit > 0:
		return p.Limit
	case d.cfg.Size > 0:
		return d.cfg.Size
	}
	est := time.Duration(0)
	if p.Bench != "" && p.Bench == d.prev.Bench && p.NP == d.prev.NP {
		grow := 1.0
		if d.prev.Bytes > 0 && p.Bytes > d.prev.Bytes {
			grow = float64(p.Bytes) / float64(d.prev.Bytes)
		}
		est = time.Duration(float64(d.prevDur) * grow)
	}
	return d.cfg.Floor + d.cfg.Budget + 10*est
}

// Phase is the phase now running: the size a rank was measuring when it
// met an error.
func (d *Dog) Phase() Phase {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.phase
}

// Limit is the deadline of the phase now running (0: none).
func (d *Dog) Limit() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.limit
}

// check reports a passed deadline, once.
func (d *Dog) check() (Report, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fired {
		return Report{}, false
	}
	now := d.now()
	r := Report{Phase: d.shown, InFlight: now.Sub(d.since), Elapsed: now.Sub(d.start)}
	switch {
	case d.cfg.Run > 0 && r.Elapsed > d.cfg.Run:
		r.Run, r.Limit = true, d.cfg.Run
	case d.limit > 0 && r.InFlight > d.limit:
		r.Limit = d.limit
	default:
		return Report{}, false
	}
	d.fired = true
	return r, true
}

// Ranks writes a rank list compactly: "0-3,8".
func Ranks(rs []int) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", rs[i], rs[j])
		} else {
			fmt.Fprintf(&b, "%d", rs[i])
		}
		i = j + 1
	}
	return b.String()
}
