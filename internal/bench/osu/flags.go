package osu

// OSU's command-line syntax: its flags, under the short and the long
// names OSU 7 gives them, each with its usage string (the one description
// gomb osu -help prints), and its positional arguments.

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
)

// Register adds OSU's flags to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	both := func(short, long, usage string, set func(string) error) {
		fs.Func(short, usage, set)
		fs.Func(long, usage, set)
	}
	bothBool := func(p *bool, short, long, usage string) {
		fs.BoolVar(p, short, *p, usage)
		fs.BoolVar(p, long, *p, usage)
	}
	both("m", "message-size", "`[MIN:]MAX` message sizes, doubling from MIN (default 1) to MAX (default 4 MiB point-to-point and one-sided, 1 MiB collectives); k and m suffixes", o.setSizes)
	// as OSU: -i 0 is refused, -x 0 is no warm-up
	both("i", "iterations", "`N` iterations (OSU: 10000/1000 latency, 100/20 bandwidth, 1000/100 collectives; small/large = up to/above 8 KiB)",
		cli.AtLeast(1, "iterations", func(v int) { o.Iter = v }))
	both("x", "warmup", "`N` warm-up iterations (OSU: 100/10 latency, 10/2 bandwidth, 100/10 collectives)",
		cli.AtLeast(0, "warm-up iterations", func(v int) { o.Skip = &v }))
	bothBool(&o.Full, "f", "full", "full output: min, max and iterations (collectives)")
	window := cli.Int{P: &o.Window, Min: 1, Max: 1 << 16, What: "messages in a window"}
	fs.Var(window, "W", "`N` window size")
	fs.Var(window, "window-size", "`N` window size")
	both("M", "mem-limit", "`BYTES` buffer memory per process; larger sizes are dropped (default 512 MiB)",
		func(s string) (err error) { o.MemLimit, err = bench.ParseSize(s); return err })
	cUsage := "validate the data of every size; adds a Validation column, and the exit status is 3 when a size fails; -clog or -clog:DIR (OSU 7.4) also writes every wrong element to DIR/log-RANK.log (default DIR validation_output, which must not exist)"
	fs.Var(cFlag{o}, "c", cUsage)
	fs.Var(cFlag{o}, "validation", cUsage)
	both("T", "type", "`TYPE` mpi_char, mpi_int, mpi_float or mpi_double (default mpi_char)",
		func(s string) (err error) { o.Type, err = ParseType(s); return err })
	fs.Func("k", "`fixed:R|rotate` root of rooted collectives (default fixed:0)", func(s string) error {
		if s == "rotate" {
			o.RootRotate = true
			return nil
		}
		r, ok := strings.CutPrefix(s, "fixed:")
		root, err := strconv.Atoi(r)
		if !ok || err != nil || root < 0 {
			return fmt.Errorf("want fixed:RANK or rotate, got %q", s)
		}
		o.Root = root
		return nil
	})
	fs.BoolVar(&o.InPlace, "l", false, "MPI_IN_PLACE (blocking collectives)")
	fs.Var(zFlag{o}, "z", "OSU's tail columns: -z for P50, P90 and P99, -zLIST or -z=LIST for up to 5 percentiles 0-100 (-z25,75), of the per-iteration values as OSU 7.4 takes them")
	fs.StringVar(&o.Device, "d", "", "`cuda` buffers in GPU memory (the CUDA runtime is loaded at run time); two letters after the test, H or D, place rank 0's and rank 1's buffers (default D D)")
	fs.StringVar(&o.Device, "accelerator", "", "`cuda` buffers in GPU memory (the CUDA runtime is loaded at run time); two letters after the test, H or D, place rank 0's and rank 1's buffers (default D D)")
	fs.Func("w", "`create|allocate|dynamic` window creation (one-sided)",
		func(s string) (err error) { o.Win, err = ParseWin(s); o.WinSet = true; return err })
	fs.Func("s", "`lock|flush|flush_local|lock_all|pscw|fence` synchronization (one-sided)",
		func(s string) (err error) { o.Sync, err = ParseSync(s); o.SyncSet = true; return err })
	bothBool(&o.Session, "I", "session", "start MPI through an MPI-4 session (MPI_Session_init, the mpi://WORLD process set's communicator) instead of MPI_Init, as OSU 7.4 does")
	both("G", "graph", "`tty|png|tty,png` after the test, every size's value at each timed iteration: a terminal plot, and a PNG file osu_TEST-SIZE.png in the working directory",
		func(s string) (err error) { o.Graph, err = parseGraph(s); return err })
	both("D", "ddt", "`cont|vect:STRIDE:BLOCK|indx:FILE` every message one derived datatype over the size's elements: contiguous, a vector of BLOCK-element blocks STRIDE apart, or the DISPLACEMENT,LENGTH blocks of FILE; adds a Transmit Size column",
		func(s string) error {
			d, err := ParseDDT(s)
			o.DDT = &d
			return err
		})
	both("N", "nhbr", "`cart:D:R|graph:FILE` the neighbourhood collectives' topology: a periodic grid of D dimensions, neighbours within R steps (default cart:1:1, a ring), or an adjacency list of SRC,DST lines",
		func(s string) error {
			t, err := ParseTopology(s)
			o.Topology = &t
			return err
		})
	fs.Func("t", "`N|SEND:RECV` MPI_Test calls during the compute (non-blocking); latency_mt: RECV receiver threads (default 2) and SEND sender threads (default 1); latency_mp: forked processes beside rank 1 and rank 0 (default 2:2; RECV alone: none beside rank 0); 1 to 127",
		func(s string) error { o.tArg = s; return nil })
}

// setSizes reads -m [MIN:]MAX.
func (o *Options) setSizes(s string) error {
	a, b, two := strings.Cut(s, ":")
	if !two {
		a, b = "", s
	}
	if a != "" {
		v, err := bench.ParseSize(a)
		if err != nil {
			return err
		}
		o.MinSize = v
	}
	if b != "" {
		v, err := bench.ParseSize(b)
		if err != nil {
			return err
		}
		if v < 1 {
			return fmt.Errorf("the largest size must be at least 1 byte, got %q", s)
		}
		o.MaxSize = v
	}
	return nil
}

// Args reads the positional arguments: the test, and after -d the
// placement letters of rank 0's and rank 1's buffers (H or D; D D when
// not given). It checks the options against the test.
func (o *Options) Args(pos []string) (*Spec, error) {
	if len(pos) == 0 {
		return nil, fmt.Errorf("no test named ('gomb osu -list' shows them)")
	}
	s, ok := Lookup(pos[0])
	if !ok {
		return nil, fmt.Errorf("unknown test %q ('gomb osu -list' shows them)", pos[0])
	}
	place := pos[1:]
	if o.Device != "" && len(place) == 0 {
		place = []string{"D", "D"}
	}
	switch {
	case len(place) == 0:
	case len(place) != 2 || o.Device == "":
		return nil, fmt.Errorf("buffer placement %q: give two letters (H or D) after -d cuda", strings.Join(place, " "))
	default:
		for i, p := range place {
			if p != "H" && p != "D" {
				return nil, fmt.Errorf("buffer placement %q: want H or D", p)
			}
			o.Place[i] = p[0]
		}
	}
	if err := o.Check(s); err != nil {
		return nil, err
	}
	return s, nil
}
