package bench

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fault is what GOMB_FAULT asks for, read once per process by
// FaultFromEnv: faults made on purpose, for gomb's own tests and for the
// anomalies explain's corpus needs. A nil *Fault is no fault.
type Fault struct {
	Hang     *Hang     // hang:BYTES:RANK
	Delay    *Delay    // delay:RANK:BYTES:DELAY[:BENCH,...]
	Corrupt  bool      // check-corrupt: every -check validation sees a flipped byte
	MPIError *MPIError // mpi-error:BENCH:BYTES[:RANK]
	// Crash: library-crash[:RANK]: that world rank (-1: every rank)
	// faults inside the C library as soon as MPI has started, as a
	// library's defect would crash it (mpi.InjectCrash)
	Crash *int
}

// FaultFromEnv reads GOMB_FAULT: nil when it is unset, an error when it
// asks for no fault gomb knows or for one malformed.
func FaultFromEnv() (*Fault, error) {
	v := os.Getenv("GOMB_FAULT")
	if v == "" {
		return nil, nil
	}
	f, err := ParseFault(v)
	if err != nil {
		return nil, fmt.Errorf("GOMB_FAULT=%s: %w", v, err)
	}
	return f, nil
}

// ParseFault parses a GOMB_FAULT value.
func ParseFault(v string) (*Fault, error) {
	kind, _, _ := strings.Cut(v, ":")
	var f Fault
	var err error
	switch kind {
	case "hang":
		f.Hang, err = parseHang(v)
	case "delay":
		f.Delay, err = ParseDelay(v)
	case "check-corrupt":
		if v != kind {
			err = errors.New("check-corrupt takes no arguments")
		}
		f.Corrupt = true
	case "mpi-error":
		f.MPIError, err = parseMPIError(v)
	case "library-crash":
		f.Crash, err = parseCrash(v)
	default:
		err = errors.New("want hang:BYTES:RANK, delay:RANK:BYTES:DELAY[:BENCH,...], check-corrupt, mpi-error:BENCH:BYTES[:RANK] or library-crash[:RANK]")
	}
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// Hang is the fault GOMB_FAULT=hang:BYTES:RANK asks for: that world rank
// stops answering, forever, just before the timed loop of that size, as a
// rank stuck in an MPI call would (its peers then wait inside MPI): the
// watchdog's tests.
type Hang struct {
	Bytes int64
	Rank  int
}

func parseHang(v string) (*Hang, error) {
	f := strings.Split(v, ":")
	if len(f) != 3 {
		return nil, errors.New("want hang:BYTES:RANK")
	}
	h := &Hang{}
	var err error
	if h.Bytes, err = parseBytes(f[1]); err != nil {
		return nil, err
	}
	if h.Rank, err = parseRank(f[2]); err != nil {
		return nil, err
	}
	return h, nil
}

// HangIfAsked blocks forever when the fault asks this rank to hang at this
// size.
func (f *Fault) HangIfAsked(bytes int64, rank int) {
	if f == nil || f.Hang == nil || bytes != f.Hang.Bytes || rank != f.Hang.Rank {
		return
	}
	for {
		time.Sleep(time.Hour)
	}
}

// MPIError is the fault GOMB_FAULT=mpi-error:BENCH:BYTES[:RANK] asks
// for: at size BYTES of benchmark BENCH, before its timed loop, every
// rank (or world rank RANK alone) makes an MPI call that the library
// refuses (mpi.InjectError), as a defect of the library's would fail a
// call: a job of several benchmarks records it and goes on when every
// rank met it (session.Session.Contain), and ends as after any MPI error
// when only some did.
type MPIError struct {
	Bench string
	Bytes int64
	Rank  int // -1: every rank
}

func parseMPIError(v string) (*MPIError, error) {
	f := strings.Split(v, ":")
	if len(f) < 3 || len(f) > 4 || f[1] == "" {
		return nil, errors.New("want mpi-error:BENCH:BYTES[:RANK]")
	}
	e := &MPIError{Bench: f[1], Rank: -1}
	var err error
	if e.Bytes, err = parseBytes(f[2]); err != nil {
		return nil, err
	}
	if len(f) == 4 {
		if e.Rank, err = parseRank(f[3]); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// parseBytes reads a fault's message size: a whole number of bytes, 0
// or more.
func parseBytes(v string) (int64, error) {
	b, err := strconv.ParseInt(v, 10, 64)
	if err != nil || b < 0 {
		return 0, fmt.Errorf("bytes %q: want a whole number", v)
	}
	return b, nil
}

// parseRank reads a fault's world rank: a whole number, 0 or more.
func parseRank(v string) (int, error) {
	r, err := strconv.Atoi(v)
	if err != nil || r < 0 {
		return 0, fmt.Errorf("rank %q: want a world rank", v)
	}
	return r, nil
}

func parseCrash(v string) (*int, error) {
	f := strings.Split(v, ":")
	rank := -1
	switch {
	case len(f) > 2:
		return nil, errors.New("want library-crash[:RANK]")
	case len(f) == 2:
		r, err := parseRank(f[1])
		if err != nil {
			return nil, err
		}
		rank = r
	}
	return &rank, nil
}

// CrashHere reports whether this rank is to crash (library-crash).
func (f *Fault) CrashHere(rank int) bool {
	return f != nil && f.Crash != nil && (*f.Crash < 0 || *f.Crash == rank)
}

// MPIErrorAt reports whether this rank is to make a refused MPI call at
// size bytes of benchmark bench (false without an mpi-error fault).
func (f *Fault) MPIErrorAt(bench string, bytes int64, rank int) bool {
	if f == nil || f.MPIError == nil {
		return false
	}
	e := f.MPIError
	return e.Bench == bench && e.Bytes == bytes && (e.Rank < 0 || e.Rank == rank)
}

// DelayAt is the delay in seconds this rank spins per iteration of
// benchmark at size bytes (Delay.At; 0 without a delay fault).
func (f *Fault) DelayAt(benchmark string, bytes int64, rank int) float64 {
	if f == nil {
		return 0
	}
	return f.Delay.At(benchmark, bytes, rank)
}

// Delay is the fault GOMB_FAULT=delay:RANK:BYTES:DELAY[:BENCH,...] asks
// for: world rank RANK spins DELAY before every iteration of the IMB
// loops (a rank held back by other work, arriving late) at the sizes
// BYTES ("4096", "4096-65536" or "4096-", from 4 KiB up), in the named
// benchmarks (all without). DELAY is a fixed time, a cost per byte, or
// both: "20us", "0.5ns/B", "20us+0.5ns/B". It makes, for real, the
// stragglers and cliffs explain must find.
type Delay struct {
	Rank       int
	From, To   int64 // To < 0: no upper bound
	US, NSPerB float64
	Benchmarks []string
}

// ParseDelay parses "delay:RANK:BYTES:DELAY[:BENCH,...]".
func ParseDelay(v string) (*Delay, error) {
	f := strings.Split(v, ":")
	if len(f) < 4 || len(f) > 5 || f[0] != "delay" {
		return nil, errors.New("want delay:RANK:BYTES:DELAY[:BENCH,...]")
	}
	d := &Delay{To: -1}
	var err error
	if d.Rank, err = parseRank(f[1]); err != nil {
		return nil, err
	}
	lo, hi, ranged := strings.Cut(f[2], "-")
	if d.From, err = strconv.ParseInt(lo, 10, 64); err != nil || d.From < 0 {
		return nil, fmt.Errorf("bytes %q: want N, A-B or A-", f[2])
	}
	d.To = d.From
	if ranged {
		d.To = -1
		if hi != "" {
			if d.To, err = strconv.ParseInt(hi, 10, 64); err != nil || d.To < d.From {
				return nil, fmt.Errorf("bytes %q: want N, A-B or A-", f[2])
			}
		}
	}
	for _, term := range strings.Split(f[3], "+") {
		var x float64
		switch {
		case strings.HasSuffix(term, "ns/B"):
			x, err = strconv.ParseFloat(strings.TrimSuffix(term, "ns/B"), 64)
			d.NSPerB += x
		case strings.HasSuffix(term, "us"):
			x, err = strconv.ParseFloat(strings.TrimSuffix(term, "us"), 64)
			d.US += x
		default:
			err = errors.New("no unit")
		}
		if err != nil || !(x >= 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("delay %q: want 20us, 0.5ns/B or 20us+0.5ns/B", f[3])
		}
	}
	if len(f) == 5 && f[4] != "" {
		d.Benchmarks = strings.Split(f[4], ",")
	}
	return d, nil
}

// At is the delay in seconds this rank spins per iteration of benchmark
// at size bytes: 0 outside the fault (and for a nil Delay).
func (d *Delay) At(benchmark string, bytes int64, rank int) float64 {
	if d == nil || rank != d.Rank || bytes < d.From || d.To >= 0 && bytes > d.To {
		return 0
	}
	if len(d.Benchmarks) > 0 && !slices.Contains(d.Benchmarks, benchmark) {
		return 0
	}
	return d.US*1e-6 + d.NSPerB*1e-9*float64(bytes)
}
