package p2p

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
)

// Options are an IMB-P2P run's settings, recorded in the run record. The
// JSON names are part of the record schema.
type Options struct {
	// IterMax and IterBytes are -iter max,numerator: a size of s bytes
	// runs round(IterBytes/s) iterations, at least 1 and at most IterMax
	// (size 0: IterMax); a tenth of them first as warm-up.
	IterMax   int   `json:"iter_max"`
	IterBytes int64 `json:"iter_numerator_bytes"`
	// Sizes are the message sizes in bytes, in the order they run.
	Sizes []int64 `json:"sizes"`
	// MsgWr, MsgRd: touch a byte of every cache line of the send buffer
	// before a send, of the receive buffer after a receive.
	MsgWr bool `json:"msgwr"`
	MsgRd bool `json:"msgrd"`
	// PauseUS is -pause: microseconds slept before and after each size.
	PauseUS int `json:"pause_us"`
	// NoSamples is -samples off: no per-iteration stamps.
	NoSamples bool `json:"no_samples,omitempty"`
}

// maxLog is IMB-P2P's largest -msglog exponent.
const maxLog = 47

// DefaultOptions are IMB-P2P's defaults: 100000 iterations at most, 800
// MiB per size, sizes 0 and 1 B to 4 MiB, both touches on, 0.1 s pauses.
func DefaultOptions() Options {
	return Options{IterMax: 100000, IterBytes: 100 * 8 << 20, Sizes: logSizes(0, 22, true), MsgWr: true, MsgRd: true,
		PauseUS: 100000}
}

func logSizes(lo, hi int, zero bool) []int64 {
	var out []int64
	if zero {
		out = append(out, 0)
	}
	for k := lo; k <= hi; k++ {
		out = append(out, int64(1)<<k)
	}
	return out
}

// Iterations is IMB-P2P's get_iters: the timed and warm-up iterations
// of a size.
func (o *Options) Iterations(size int64) (n, warm int) {
	n = o.IterMax
	if size > 0 {
		n = int(max(1, min(float64(o.IterMax), math.Round(float64(o.IterBytes)/float64(size)))))
	}
	warm = n / 10
	if warm == 0 && n > 1 {
		warm = 1
	}
	return n, warm
}

// MaxSize is the largest size of the run (IMB-P2P's buffers hold it).
func (o *Options) MaxSize() int64 {
	m := int64(0)
	for _, s := range o.Sizes {
		m = max(m, s)
	}
	return m
}

// MinSize is the smallest.
func (o *Options) MinSize() int64 {
	if len(o.Sizes) == 0 {
		return 0
	}
	m := o.Sizes[0]
	for _, s := range o.Sizes {
		m = min(m, s)
	}
	return m
}

// CommandLine is what IMB-P2P's command line asks for.
type CommandLine struct {
	Options
	Names []string // benchmarks, in the order given
	sized bool     // a size flag was given: its list replaces the default
}

// NewCommandLine holds IMB-P2P's defaults.
func NewCommandLine() *CommandLine { return &CommandLine{Options: DefaultOptions()} }

// Register adds IMB-P2P's flags to fs. The size flags build one list in
// the order given, as IMB-P2P's do: -msglog and -msglen replace it,
// -msgsz appends.
func (c *CommandLine) Register(fs *flag.FlagSet) {
	o := &c.Options
	fs.Var(iterValue{o}, "iter", "`max[,MiB]` iterations per size: round(MiB x 2^20 / size), at most max (size 0: max); a tenth more as warm-up")
	fs.Func("msglog", "`[k:]n` sizes 0, 1, 2, ... 2^n; or 2^k ... 2^n (default 0, 1 B ... 4 MiB)", func(s string) error {
		sizes, err := parseMsgLog(s)
		if err == nil {
			c.setSizes(sizes, false)
		}
		return err
	})
	fs.Func("msglen", "`FILE` sizes, one per line (k, m, g suffixes; # comments)", func(path string) error {
		sizes, err := readMsgLen(path)
		if err == nil {
			c.setSizes(sizes, false)
		}
		return err
	})
	fs.Func("msgsz", "`SIZE` add a size (k, m, g suffixes); repeatable", func(s string) error {
		v, err := parseSize(s)
		if err == nil {
			c.setSizes([]int64{v}, true)
		}
		return err
	})
	fs.Var(cli.Switch{P: &o.MsgWr}, "msgwr", "`on|off` write a byte of every 64-byte line of the send buffer before each send")
	fs.Var(cli.Switch{P: &o.MsgRd}, "msgrd", "`on|off` read a byte of every 64-byte line of the receive buffer after each receive")
	fs.Var(cli.Int{P: &o.PauseUS, Min: math.MinInt32, What: "microseconds"}, "pause", "`usec` sleep before and after each size (negative: none)")
	fs.Var(cli.OffSwitch{P: &o.NoSamples}, "samples", "`on|off` keep every iteration's time; off runs IMB-P2P's loop exactly, without a cycle-counter read per iteration")
}

// setSizes replaces the size list (or appends to it) as IMB-P2P's flags
// do; the first size flag replaces the default list.
func (c *CommandLine) setSizes(sizes []int64, add bool) {
	if !c.sized || !add {
		c.Sizes = nil
	}
	c.sized = true
	c.Sizes = append(c.Sizes, sizes...)
}

// Finish checks the names and what no single flag can.
func (c *CommandLine) Finish(names []string) error {
	for _, n := range names {
		s, ok := Lookup(n)
		if !ok {
			return fmt.Errorf("unknown benchmark %q ('gomb imb-p2p -list' shows the names)", n)
		}
		c.Names = append(c.Names, s.Name)
	}
	if len(c.Names) == 0 {
		c.Names = Names()
	}
	if len(c.Sizes) == 0 {
		return fmt.Errorf("no message sizes")
	}
	for _, s := range c.Sizes {
		if s > math.MaxInt32 {
			return fmt.Errorf("message size %d is above the %d bytes an MPI count of MPI_BYTE holds", s, math.MaxInt32)
		}
	}
	return nil
}

// parseSize is IMB-P2P's size: a count of bytes with a k, m or g suffix
// (IMB-MPI1's take no g).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if n := len(t); n > 1 && (t[n-1] == 'g' || t[n-1] == 'G') {
		v, err := bench.ParseSize(t[:n-1])
		if err != nil || v > 1<<10 {
			return 0, fmt.Errorf("%q is not a message length (want a non-negative integer, optionally with k, m or g)", s)
		}
		return v << 30, nil
	}
	return bench.ParseSize(t)
}

// parseMsgLog reads -msglog n (0, 1, ..., 2^n) or k:n (2^k ... 2^n).
func parseMsgLog(s string) ([]int64, error) {
	bad := fmt.Errorf("want n or k:n with 0 ≤ k ≤ n ≤ %d, got %q", maxLog, s)
	lo, hi, pair := strings.Cut(s, ":")
	k, err := strconv.Atoi(lo)
	if err != nil || k < 0 || k > maxLog {
		return nil, bad
	}
	if !pair {
		return logSizes(0, k, true), nil
	}
	n, err := strconv.Atoi(hi)
	if err != nil || n < k || n > maxLog {
		return nil, bad
	}
	return logSizes(k, n, false), nil
}

// readMsgLen reads a -msglen file: a size per line, # comments and blank
// lines skipped.
func readMsgLen(path string) ([]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMsgLen(f, path)
}

func parseMsgLen(r io.Reader, name string) ([]int64, error) {
	var out []int64
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		v, err := parseSize(strings.Fields(t)[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no message lengths", name)
	}
	return out, nil
}

// iterValue is -iter max[,MiB].
type iterValue struct{ o *Options }

func (v iterValue) String() string {
	if v.o == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d", v.o.IterMax, v.o.IterBytes>>20)
}

func (v iterValue) Set(s string) error {
	a, b, two := strings.Cut(s, ",")
	m, err := strconv.Atoi(a)
	if err != nil || m <= 0 {
		return fmt.Errorf("want max[,MiB] with positive integers, got %q", s)
	}
	if m > cli.MaxCount {
		return fmt.Errorf("want max[,MiB] with max at most %d (MPI's int), got %q", cli.MaxCount, s)
	}
	v.o.IterMax = m
	if two {
		mib, err := strconv.Atoi(b)
		if err != nil || mib <= 0 {
			return fmt.Errorf("want max[,MiB] with positive integers, got %q", s)
		}
		v.o.IterBytes = int64(mib) << 20
	}
	return nil
}
