package watchdog

import (
	"strings"
	"testing"
	"time"
)

// clock is a hand-moved time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func dog(cfg Config) (*Dog, *clock) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := New(cfg, func(Report) {})
	d.now = c.now
	d.mu.Lock()
	d.start, d.since = c.t, c.t
	d.mu.Unlock()
	return d, c
}

func TestDerivedDeadline(t *testing.T) {
	d, c := dog(Config{Budget: 30 * time.Second})
	d.Enter(Phase{Bench: "PingPong", NP: 2, Bytes: 1024})
	if got := d.Limit(); got != 90*time.Second { // floor 60 s + budget 30 s, nothing measured yet
		t.Errorf("first size: %v", got)
	}
	c.add(2 * time.Second)
	d.Enter(Phase{Bench: "PingPong", NP: 2, Bytes: 4096}) // 4x the bytes of a size that took 2 s
	if got := d.Limit(); got != 90*time.Second+10*8*time.Second {
		t.Errorf("after 2 s at a quarter of the bytes: %v", got)
	}
	c.add(time.Second)
	d.Enter(Phase{Bench: "Allreduce", NP: 2, Bytes: 8}) // another benchmark starts afresh
	if got := d.Limit(); got != 90*time.Second {
		t.Errorf("new benchmark: %v", got)
	}
	c.add(89 * time.Second)
	if _, ok := d.check(); ok {
		t.Error("fired before the deadline")
	}
	c.add(2 * time.Second)
	r, ok := d.check()
	if !ok || r.Run || r.Phase.Bench != "Allreduce" || r.InFlight != 91*time.Second || r.Limit != 90*time.Second {
		t.Fatalf("report %+v %v", r, ok)
	}
	if want := "Allreduce, np 2, 8 bytes in flight for 1m31s, past its deadline of 1m30s"; r.String() != want {
		t.Errorf("%q, want %q", r.String(), want)
	}
	c.add(time.Hour)
	if _, ok := d.check(); ok {
		t.Error("fired twice")
	}
}

func TestFixedOffAndRun(t *testing.T) {
	d, c := dog(Config{Size: 5 * time.Second})
	d.Enter(Phase{Bench: "bw", NP: 2, Bytes: 1 << 20})
	c.add(6 * time.Second)
	if r, ok := d.check(); !ok || r.Limit != 5*time.Second {
		t.Errorf("fixed: %+v %v", r, ok)
	}
	d, c = dog(Config{Size: -1, Run: time.Minute})
	for i := 0; i < 10; i++ {
		d.Enter(Phase{Bench: "ring", NP: 4, Bytes: 1 << 20})
		c.add(5 * time.Second)
		if _, ok := d.check(); ok {
			t.Fatal("per-size deadline off, yet fired")
		}
	}
	c.add(15 * time.Second)
	r, ok := d.check()
	if !ok || !r.Run || !strings.HasPrefix(r.String(), "the run passed its deadline of 1m0s (ring, np 4, 1048576 bytes in flight for 20s)") {
		t.Errorf("run deadline: %q %v", r, ok)
	}
}

func TestFires(t *testing.T) {
	got := make(chan Report, 1)
	d := New(Config{Size: 50 * time.Millisecond}, func(r Report) { got <- r })
	d.Start()
	defer d.Stop()
	d.Enter(Phase{What: "finalize"})
	select {
	case r := <-got:
		if r.Phase.What != "finalize" || r.String()[:8] != "finalize" {
			t.Errorf("%+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("did not fire")
	}
}

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{0}, "0"}, {[]int{0, 1, 2, 3, 8}, "0-3,8"}, {[]int{1, 3, 4}, "1,3-4"}} {
		if got := Ranks(c.in); got != c.want {
			t.Errorf("%v: %q", c.in, got)
		}
	}
}

// TestPhaseLimit: a step with its own limit keeps it whatever the size
// rule says, and -watchdog off still turns it off.
func TestPhaseLimit(t *testing.T) {
	step := Phase{What: "MPI_Finalize", Limit: 30 * time.Second}
	for _, c := range []struct {
		cfg  Config
		want time.Duration
	}{
		{Config{}, 30 * time.Second},                       // derived sizes: 60 s floor
		{Config{Size: 10 * time.Minute}, 30 * time.Second}, // a long fixed size deadline
		{Config{Size: -1}, 0},                              // off
		{Config{Size: -1, Run: time.Hour}, 0},              // off; the run's deadline still holds
		{Config{Budget: time.Hour}, 30 * time.Second},      // a large -time budget
	} {
		d, _ := dog(c.cfg)
		d.Enter(step)
		if got := d.Limit(); got != c.want {
			t.Errorf("%+v: limit %v, want %v", c.cfg, got, c.want)
		}
	}
}

// TestTimerFollowsPhases: the timer is set anew by every phase, so a run
// that keeps moving never fires; once it stalls, the deadline fires on the
// stalled phase, and the run's own deadline fires with no phase change.
func TestTimerFollowsPhases(t *testing.T) {
	got := make(chan Report, 1)
	d := New(Config{Size: 80 * time.Millisecond}, func(r Report) { got <- r })
	d.Start()
	defer d.Stop()
	for i := 0; i < 15; i++ {
		d.Enter(Phase{Bench: "PingPong", NP: 2, Bytes: int64(i)})
		time.Sleep(20 * time.Millisecond)
		select {
		case r := <-got:
			t.Fatalf("fired while the run moved on: %+v", r)
		default:
		}
	}
	select {
	case r := <-got:
		if r.Phase.Bytes != 14 || r.Run {
			t.Errorf("stalled phase: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("did not fire after the run stalled")
	}

	run := make(chan Report, 1)
	d2 := New(Config{Size: -1, Run: 60 * time.Millisecond}, func(r Report) { run <- r })
	d2.Start()
	defer d2.Stop()
	select {
	case r := <-run:
		if !r.Run {
			t.Errorf("run deadline: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run deadline did not fire")
	}
}

// TestNote: a note changes what the report says runs, not the phase's
// clock, its deadline or the next phase's estimate.
func TestNote(t *testing.T) {
	d, c := dog(Config{})
	d.Enter(Phase{Bench: "fleet round", NP: 4})
	c.add(2 * time.Second)
	d.Enter(Phase{Bench: "fleet round", NP: 4, Ranks: []int{0, 1, 2, 3}}) // after a round of 2 s
	c.add(30 * time.Second)
	d.Note(Phase{Bench: "pair_latency of a - b", NP: 2, Bytes: 8, Ranks: []int{2, 3}})
	if got := d.Limit(); got != 60*time.Second+10*2*time.Second {
		t.Errorf("limit %v after a note", got)
	}
	if p := d.Phase(); p.Bench != "fleet round" || p.Bytes != 0 { // the phase, not the note
		t.Errorf("phase %+v after a note", p)
	}
	c.add(51 * time.Second)
	r, ok := d.check()
	if !ok || r.InFlight != 81*time.Second || r.Phase.Bench != "pair_latency of a - b" || Ranks(r.Phase.Ranks) != "2-3" {
		t.Errorf("report %+v %v", r, ok)
	}
}
