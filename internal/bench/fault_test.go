package bench

import (
	"reflect"
	"testing"
)

func TestParseDelay(t *testing.T) {
	cases := []struct {
		in   string
		want *Delay
	}{
		{"delay:2:4096:20us", &Delay{Rank: 2, From: 4096, To: 4096, US: 20}},
		{"delay:1:65536-:0.4ns/B:Sendrecv", &Delay{Rank: 1, From: 65536, To: -1, NSPerB: 0.4, Benchmarks: []string{"Sendrecv"}}},
		{"delay:0:0-1024:5us+1ns/B:Allreduce,Barrier", &Delay{Rank: 0, From: 0, To: 1024, US: 5, NSPerB: 1, Benchmarks: []string{"Allreduce", "Barrier"}}},
		{"delay:1:8:20", nil},      // no unit
		{"delay:x:8:20us", nil},    // rank
		{"delay:-1:8:20us", nil},   // negative rank
		{"delay:1:8-4:20us", nil},  // range backwards
		{"delay:1:-:20us", nil},    // no lower bound
		{"delay:1:8:-2us", nil},    // negative delay
		{"delay:1:8:NaNus", nil},   // not a number
		{"delay:1:8", nil},         // too few fields
		{"delay:1:8:2us:A:B", nil}, // too many
		{"hang:1:8:2us", nil},      // another fault
		{"delay:1:8:2us+", nil},    // empty term
		{"delay:1:8:Infns/B", nil}, // infinite
	}
	for _, c := range cases {
		got, err := ParseDelay(c.in)
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: no error, got %+v", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestDelayAt(t *testing.T) {
	d, err := ParseDelay("delay:1:1024-4096:10us+0.5ns/B:Allreduce")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		bench string
		bytes int64
		rank  int
		want  float64
	}{
		{"Allreduce", 2048, 1, 10e-6 + 1024e-9},
		{"Allreduce", 1024, 1, 10e-6 + 512e-9},
		{"Allreduce", 4096, 1, 10e-6 + 2048e-9},
		{"Allreduce", 512, 1, 0},
		{"Allreduce", 8192, 1, 0},
		{"Allreduce", 2048, 0, 0},
		{"Bcast", 2048, 1, 0},
	}
	for _, c := range cases {
		if got := d.At(c.bench, c.bytes, c.rank); got < c.want-1e-15 || got > c.want+1e-15 {
			t.Errorf("At(%s, %d, %d) = %g, want %g", c.bench, c.bytes, c.rank, got, c.want)
		}
	}
	var none *Delay
	if none.At("Allreduce", 2048, 1) != 0 {
		t.Error("a nil Delay delays")
	}
	t.Setenv("GOMB_FAULT", "check-corrupt")
	if f, err := FaultFromEnv(); f == nil || f.Delay != nil || err != nil {
		t.Errorf("GOMB_FAULT=check-corrupt: %v, %v", f, err)
	}
	t.Setenv("GOMB_FAULT", "delay:1:8:oops")
	if _, err := FaultFromEnv(); err == nil {
		t.Error("a malformed delay fault is no error")
	}
}

func TestParseFault(t *testing.T) {
	cases := []struct {
		in   string
		want *Fault
	}{
		{"hang:65536:1", &Fault{Hang: &Hang{Bytes: 65536, Rank: 1}}},
		{"check-corrupt", &Fault{Corrupt: true}},
		{"delay:2:4096:20us", &Fault{Delay: &Delay{Rank: 2, From: 4096, To: 4096, US: 20}}},
		{"mpi-error:allreduce:64", &Fault{MPIError: &MPIError{Bench: "allreduce", Bytes: 64, Rank: -1}}},
		{"mpi-error:Sendrecv:0:1", &Fault{MPIError: &MPIError{Bench: "Sendrecv", Bytes: 0, Rank: 1}}},
		{"mpi-error:allreduce", nil},        // no size
		{"mpi-error::64", nil},              // no benchmark
		{"mpi-error:allreduce:-1", nil},     // negative size
		{"mpi-error:allreduce:64:x", nil},   // not a rank
		{"mpi-error:allreduce:64:1:2", nil}, // too many fields
		{"hang:65536", nil},                 // too few fields
		{"hang:x:1", nil},                   // not a size
		{"hang:8:-1", nil},                  // negative rank
		{"library-crash", &Fault{Crash: ptr(-1)}},
		{"library-crash:3", &Fault{Crash: ptr(3)}},
		{"library-crash:x", nil},   // not a rank
		{"library-crash:-1", nil},  // negative rank
		{"library-crash:1:2", nil}, // too many fields
		{"check-corrupt:1", nil},   // no arguments
		{"crash:1", nil},           // no such fault
		{"delay:1:8", nil},         // a malformed delay
	}
	for _, c := range cases {
		got, err := ParseFault(c.in)
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: no error, got %+v", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	// A refusal names the field that is wrong, whichever fault holds it.
	for _, c := range []struct{ in, want string }{
		{"hang:x:1", `bytes "x": want a whole number`},
		{"hang:8:-1", `rank "-1": want a world rank`},
		{"mpi-error:allreduce:-1", `bytes "-1": want a whole number`},
		{"mpi-error:allreduce:64:x", `rank "x": want a world rank`},
		{"library-crash:x", `rank "x": want a world rank`},
	} {
		if _, err := ParseFault(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
	var none *Fault
	none.HangIfAsked(65536, 1) // returns: no fault
	if none.DelayAt("PingPong", 8, 0) != 0 {
		t.Error("a nil Fault delays")
	}
	if none.MPIErrorAt("PingPong", 8, 0) {
		t.Error("a nil Fault fails a call")
	}
	for _, c := range []struct {
		f    string
		rank int
		want bool
	}{{"library-crash", 2, true}, {"library-crash:1", 1, true}, {"library-crash:1", 0, false}, {"check-corrupt", 0, false}} {
		f, _ := ParseFault(c.f)
		if got := f.CrashHere(c.rank); got != c.want {
			t.Errorf("%s: CrashHere(%d) %v, want %v", c.f, c.rank, got, c.want)
		}
	}
	if none.CrashHere(0) {
		t.Error("a nil Fault crashes")
	}
	t.Setenv("GOMB_FAULT", "")
	if f, err := FaultFromEnv(); f != nil || err != nil {
		t.Errorf("GOMB_FAULT unset: %v, %v", f, err)
	}
}

func ptr(n int) *int { return &n }

func TestMPIErrorAt(t *testing.T) {
	every, _ := ParseFault("mpi-error:allreduce:64")
	one, _ := ParseFault("mpi-error:allreduce:64:1")
	cases := []struct {
		f     *Fault
		bench string
		bytes int64
		rank  int
		want  bool
	}{
		{every, "allreduce", 64, 0, true},
		{every, "allreduce", 64, 3, true},
		{every, "allreduce", 32, 0, false},
		{every, "bcast", 64, 0, false},
		{one, "allreduce", 64, 1, true},
		{one, "allreduce", 64, 0, false},
		{&Fault{Corrupt: true}, "allreduce", 64, 0, false},
	}
	for _, c := range cases {
		if got := c.f.MPIErrorAt(c.bench, c.bytes, c.rank); got != c.want {
			t.Errorf("%+v: MPIErrorAt(%s, %d, %d) = %v, want %v", c.f.MPIError, c.bench, c.bytes, c.rank, got, c.want)
		}
	}
}

// FuzzParseDelay: any string parses or errs; what parses is within its
// own bounds.
func FuzzParseDelay(f *testing.F) {
	for _, s := range []string{"delay:2:4096:20us", "delay:1:65536-:0.4ns/B:Sendrecv", "delay:0:0-1024:5us+1ns/B:A,B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDelay(s)
		if err != nil {
			return
		}
		if d.Rank < 0 || d.From < 0 || d.To >= 0 && d.To < d.From || d.US < 0 || d.NSPerB < 0 {
			t.Fatalf("%q: %+v", s, d)
		}
		if x := d.At("", d.From, d.Rank); len(d.Benchmarks) == 0 && x < 0 {
			t.Fatalf("%q: negative delay %g", s, x)
		}
	})
}
