package mt

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Options are an IMB-MT run's settings, recorded in the run record. The
// JSON names are part of the record schema.
type Options struct {
	Counts      []int                `json:"counts"` // elements per message, in the order they run
	Stride      int                  `json:"stride"` // partner distance (0: half the ranks)
	Warmup      int                  `json:"warmup"`
	Repeat      int                  `json:"repeat"`
	Window      int                  `json:"window_size"`
	Barrier     kernel.MTBarrierMode `json:"barrier"`
	MallocAlign int                  `json:"malloc_align"`
	MallocAlgo  kernel.MTMalloc      `json:"malloc_algo"`
	Check       bool                 `json:"check"`
	NoHeader    bool                 `json:"noheader,omitempty"`
	Type        kernel.Datatype      `json:"datatype"` // Int or Char
	// Multiple: -thread_level multiple, so OMP_NUM_THREADS threads a rank;
	// Threads is how many the run had (known once the team is made).
	Multiple  bool `json:"multiple"`
	Threads   int  `json:"threads"`
	NoSamples bool `json:"no_samples,omitempty"`
}

// DefaultOptions are IMB-MT's defaults.
func DefaultOptions() Options {
	return Options{Counts: []int{1, 2, 4, 8}, Warmup: 100, Repeat: 1000, Window: 64, MallocAlign: 64, Type: kernel.Int}
}

// CountsOf are the element counts s runs (BarrierMT: one, 0).
func (o *Options) CountsOf(s *Spec) []int {
	if s.Sizeless() {
		return []int{0}
	}
	return o.Counts
}

// CommandLine is what IMB-MT's command line asks for.
type CommandLine struct {
	Options
	Thread kernel.ThreadLevel
	Names  []string
}

// NewCommandLine holds IMB-MT's defaults.
func NewCommandLine() *CommandLine {
	return &CommandLine{Options: DefaultOptions(), Thread: kernel.ThreadSingle}
}

// Register adds IMB-MT's flags to fs.
func (c *CommandLine) Register(fs *flag.FlagSet) {
	o := &c.Options
	fs.Func("count", "`a,b,...` elements per message (default 1,2,4,8); #bytes is count x type size x threads", func(s string) error {
		var out []int
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 {
				return fmt.Errorf("want counts ≥ 0 separated by commas, got %q", s)
			}
			out = append(out, n)
		}
		o.Counts = out
		return nil
	})
	fs.Var(cli.Int{P: &o.Stride, Min: 0, What: "ranks"}, "stride", "`N` partner distance of the point-to-point benchmarks (0: half the ranks)")
	fs.Var(cli.Int{P: &o.Warmup, Min: 0, What: "iterations"}, "warmup", "`N` warm-up iterations")
	fs.Var(cli.Int{P: &o.Repeat, Min: 1, What: "iterations"}, "repeat", "`N` timed iterations")
	fs.Var(cli.Int{P: &o.Window, Min: 1, What: "messages in a window"}, "window_size", "`N` UniBandMT and BiBandMT window")
	fs.Func("barrier", "`on|off|special` the barrier between phases: MPI_Barrier, none, or a dissemination of empty MPI_Sendrecv (default on)",
		oneOf(&o.Barrier, word[kernel.MTBarrierMode]{"on", kernel.MTBarrierOn}, word[kernel.MTBarrierMode]{"off", kernel.MTBarrierOff},
			word[kernel.MTBarrierMode]{"special", kernel.MTBarrierSpecial}))
	fs.Var(cli.Int{P: &o.MallocAlign, Min: 1, What: "bytes"}, "malloc_align", "`B` buffer alignment in bytes")
	fs.Func("malloc_algo", "`serial|continuous|parallel` how the threads' buffers are allocated (the last two with -thread_level multiple; default serial)",
		oneOf(&o.MallocAlgo, word[kernel.MTMalloc]{"serial", kernel.MTMallocSerial},
			word[kernel.MTMalloc]{"continuous", kernel.MTMallocContinuous}, word[kernel.MTMalloc]{"parallel", kernel.MTMallocParallel}))
	fs.Var(cli.Switch{P: &o.Check}, "check", "`on|off` check the point-to-point benchmarks' data (ints only); failures are counted per rank")
	fs.BoolVar(&o.NoHeader, "noheader", false, "no banner")
	fs.Func("datatype", "`int|char` the element type (default int)",
		oneOf(&o.Type, word[kernel.Datatype]{"int", kernel.Int}, word[kernel.Datatype]{"char", kernel.Char}))
	fs.Func("thread_level", "`L` single, funneled, serialized, multiple (OMP_NUM_THREADS threads a rank, each with its own communicator) or nompinit (default single: one thread)", func(s string) (err error) {
		c.Thread, err = kernel.ParseThreadLevel(s)
		return err
	})
	fs.Var(cli.OffSwitch{P: &o.NoSamples}, "samples", "`on|off` keep every repetition's time of every thread; off runs IMB-MT's loops exactly")
}

// Finish checks the names and what no single flag can.
func (c *CommandLine) Finish(names []string) error {
	for _, n := range names {
		s, ok := Lookup(n)
		if !ok {
			return fmt.Errorf("unknown benchmark %q ('gomb imb-mt -list' shows the names)", n)
		}
		c.Names = append(c.Names, s.Name)
	}
	if len(c.Names) == 0 {
		c.Names = Names()
	}
	o := &c.Options
	o.Multiple = c.Thread == kernel.ThreadMultiple
	if o.Multiple {
		env := os.Getenv("OMP_NUM_THREADS")
		if refused, ok := os.LookupEnv(RefusedOMPThreads); ok {
			env = refused
		}
		if err := checkThreads(env); err != nil {
			return err
		}
	}
	if !o.Multiple {
		o.MallocAlgo = kernel.MTMallocSerial // as IMB-MT: the others need threads
	}
	switch {
	case o.Check && o.Type != kernel.Int:
		return fmt.Errorf("-check: only the int data type is checked (IMB-MT's rule)")
	case o.Repeat <= 0 || o.Warmup < 0:
		return fmt.Errorf("-repeat must be positive and -warmup not negative")
	case o.Repeat > cli.MaxCount || o.Warmup > cli.MaxCount || o.Window > cli.MaxCount || o.Stride > cli.MaxCount:
		return fmt.Errorf("-repeat, -warmup, -window_size and -stride are at most %d (MPI's int)", cli.MaxCount)
	case o.Window <= 0:
		return fmt.Errorf("-window_size must be positive")
	case o.MallocAlign <= 0:
		return fmt.Errorf("-malloc_align must be positive")
	case o.Stride < 0:
		return fmt.Errorf("-stride must not be negative")
	case len(o.Counts) == 0:
		return fmt.Errorf("-count: no counts")
	}
	return nil
}

// word is a flag's word and the value it stands for.
type word[T any] struct {
	w string
	v T
}

// oneOf is the Set of a flag that takes one of words: the word's value
// into *p, else "want a, b or c".
func oneOf[T any](p *T, words ...word[T]) func(string) error {
	return func(s string) error {
		var names []string
		for _, x := range words {
			if s == x.w {
				*p = x.v
				return nil
			}
			names = append(names, x.w)
		}
		last := len(names) - 1
		return fmt.Errorf("want %s or %s, got %q", strings.Join(names[:last], ", "), names[last], s)
	}
}

// RefusedOMPThreads holds an OMP_NUM_THREADS that libgomp would refuse:
// the binary renames it before libgomp reads it (internal/mpi/ompenv.c),
// so that gomb, not libgomp, says what is wrong with it.
const RefusedOMPThreads = "GOMB_OMPTHREADS"

// MaxThreads bounds OMP_NUM_THREADS with -thread_level multiple: each
// thread has a communicator of its own, and MPI libraries have a few
// thousand context ids a process (MPICH 2,048); past them MPI_Comm_dup
// fails or the transport crashes.
const MaxThreads = 1024

// checkThreads refuses an OMP_NUM_THREADS that libgomp would only warn
// about (and then run its default team) or that cannot run: its first
// value (OpenMP's list "4,2" is per nesting level) must be 1 to MaxThreads.
func checkThreads(env string) error {
	if strings.TrimSpace(env) == "" {
		return nil
	}
	first, _, _ := strings.Cut(env, ",")
	n, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || n < 1 || n > MaxThreads {
		return fmt.Errorf("OMP_NUM_THREADS=%q: want 1 to %d threads a rank with -thread_level multiple (each thread gets its own communicator)", env, MaxThreads)
	}
	return nil
}
