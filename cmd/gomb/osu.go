package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/osurun"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
)

const osuUsageText = `Usage: mpirun -np N gomb osu TEST [flags] [H|D H|D]

Runs one OSU Micro-Benchmarks 7 test with OSU's semantics and text layout
and writes every raw sample to a JSON Lines record file. 'gomb osu -list'
shows the tests; the "osu_" prefix is optional (osu_latency = latency).

OSU flags:
  -m [MIN:]MAX          message sizes, doubling from MIN (1) to MAX
                        (4 MiB point-to-point and one-sided, 1 MiB collectives)
  -i N                  iterations (OSU: 10000/1000 latency, 100/20 bandwidth,
                        1000/100 collectives; small/large = above 8 KiB)
  -x N                  warm-up iterations (100/10, 10/2, 100/10)
  -f                    full output: min, max and iterations (collectives)
  -W N                  window size (64)
  -M BYTES              buffer memory per process; larger sizes are dropped (512 MiB)
  -c                    validate the data of every size; adds a Validation column
  -T TYPE               mpi_char | mpi_int | mpi_float | mpi_double (mpi_char)
  -k fixed:R | rotate   root of rooted collectives (fixed:0)
  -l                    MPI_IN_PLACE (blocking collectives)
  -z                    P50, P90 and P99 of the raw samples
  -d cuda [D|H D|H]     buffers in GPU memory (CUDA runtime loaded at run time);
                        the letters place rank 0's and rank 1's buffers (D D)
  -w create|allocate|dynamic                    window creation (one-sided)
  -s lock|flush|flush_local|lock_all|pscw|fence synchronization (one-sided)
  -t N                  MPI_Test calls during the compute (non-blocking)
  -list, -help

gomb flags:
  -json FILE, -o FILE   JSON Lines records; '-' is stdout (the table goes to stderr)
` + archiveHelp + `` + watchHelp + `  -progress             a progress line on stderr

Exit status: 0 success, 1 run failed, 2 bad flags or input, 3 -c found wrong
data, 128+signal when interrupted (records written so far stay valid).

Examples:
  mpirun -np 2 gomb osu latency
  mpirun -np 2 gomb osu bw -m 1024:1048576 -json bw.jsonl
  mpirun -np 2 gomb osu put_latency -w create -s lock
  mpirun -np 8 gomb osu allreduce -f -T mpi_float
  mpirun -np 4 gomb osu ialltoall -t 10
  mpirun -np 2 gomb osu oneway            # each direction, synchronised clocks
  mpirun -np 2 gomb osu latency -d cuda D H
`

// osuConfig is the parsed command line.
type osuConfig struct {
	opt      osu.Options
	spec     *osu.Spec
	rec      recordFlags
	watch    watchFlags
	list     bool
	progress bool
}

func osuFlags(cfg *osuConfig) *flag.FlagSet {
	o := &cfg.opt
	fs := flag.NewFlagSet("gomb osu", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sizes := func(s string) error {
		a, b, two := strings.Cut(s, ":")
		if !two {
			a, b = "", s
		}
		if a != "" {
			v, err := parseBytes(a)
			if err != nil {
				return err
			}
			o.MinSize = v
		}
		if b != "" {
			v, err := parseBytes(b)
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
	fs.Func("m", "", sizes)
	fs.Func("message-size", "", sizes)
	iter := atLeast(1, "iterations", func(v int) { o.Iter = v }) // as OSU
	fs.Func("i", "", iter)
	fs.Func("iterations", "", iter)
	skip := atLeast(0, "warm-up iterations", func(v int) { o.Skip = &v }) // OSU: 0 is no warm-up
	fs.Func("x", "", skip)
	fs.Func("warmup", "", skip)
	fs.BoolVar(&o.Full, "f", false, "")
	fs.BoolVar(&o.Full, "full", false, "")
	fs.IntVar(&o.Window, "W", o.Window, "")
	fs.IntVar(&o.Window, "window-size", o.Window, "")
	mem := func(s string) (err error) { o.MemLimit, err = parseBytes(s); return err }
	fs.Func("M", "", mem)
	fs.Func("mem-limit", "", mem)
	fs.BoolVar(&o.Validate, "c", false, "")
	fs.BoolVar(&o.Validate, "validation", false, "")
	typ := func(s string) (err error) { o.Type, err = osu.ParseType(s); return err }
	fs.Func("T", "", typ)
	fs.Func("type", "", typ)
	fs.Func("k", "", func(s string) error {
		if s == "rotate" {
			o.RootRotate = true
			return nil
		}
		r, ok := strings.CutPrefix(s, "fixed:")
		if _, err := fmt.Sscan(r, &o.Root); !ok || err != nil || o.Root < 0 {
			return fmt.Errorf("want fixed:RANK or rotate, got %q", s)
		}
		return nil
	})
	fs.BoolVar(&o.InPlace, "l", false, "")
	fs.BoolVar(&o.Percentiles, "z", false, "")
	fs.StringVar(&o.Device, "d", "", "")
	fs.StringVar(&o.Device, "accelerator", "", "")
	fs.Func("w", "", func(s string) (err error) { o.Win, err = osu.ParseWin(s); o.WinSet = true; return err })
	fs.Func("s", "", func(s string) (err error) { o.Sync, err = osu.ParseSync(s); o.SyncSet = true; return err })
	fs.IntVar(&o.NTest, "t", 0, "")
	fs.BoolVar(&cfg.list, "list", false, "")
	fs.BoolVar(&cfg.progress, "progress", false, "")
	cfg.rec.register(fs)
	cfg.watch.register(fs)
	return fs
}

// parseBytes reads a byte count with an optional k/m suffix.
func parseBytes(s string) (int64, error) { return bench.ParseSize(s) }

// parseOSU parses the command line without touching MPI. It returns
// flag.ErrHelp for -help.
func parseOSU(args []string) (*osuConfig, error) {
	cfg := &osuConfig{opt: osu.DefaultOptions()}
	fs := osuFlags(cfg)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return cfg, err
	}
	if err != nil {
		return cfg, usageErr("%v ('gomb osu -help' lists the flags)", strings.TrimPrefix(err.Error(), "flag: "))
	}
	if cfg.list {
		return cfg, nil
	}
	if len(pos) == 0 {
		return cfg, usageErr("no test named ('gomb osu -list' shows them)")
	}
	s, ok := osu.Lookup(pos[0])
	if !ok {
		return cfg, usageErr("unknown test %q ('gomb osu -list' shows them)", pos[0])
	}
	cfg.spec = s
	place := pos[1:]
	if cfg.opt.Device != "" && len(place) == 0 {
		place = []string{"D", "D"}
	}
	switch {
	case len(place) == 0:
	case len(place) != 2 || cfg.opt.Device == "":
		return cfg, usageErr("buffer placement %q: give two letters (H or D) after -d cuda", strings.Join(place, " "))
	default:
		for i, p := range place {
			if p != "H" && p != "D" {
				return cfg, usageErr("buffer placement %q: want H or D", p)
			}
			cfg.opt.Place[i] = p[0]
		}
	}
	if err := cfg.opt.Check(s); err != nil {
		return cfg, usageErr("%v", err)
	}
	return cfg, nil
}

func osuList(w io.Writer) {
	fmt.Fprintf(w, "# OSU Micro-Benchmarks 7 tests in gomb\n")
	for _, s := range osu.Specs() {
		fmt.Fprintf(w, "  %-16s %s\n", s.Name, s.Summary)
	}
}

// osuSink is rank 0's osu.Sink.
type osuSink struct {
	out  *output
	text *osutext.Writer
}

func (k osuSink) Table(t *osu.Table) error {
	return k.out.locked(func() error { return k.text.Table(t) })
}

func (k osuSink) Result(r *result.Result) error { return k.out.result(r, k.text.Result) }

func runOSU(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseOSU(args)
	if early(perr, cfg.list, stdout, func(w io.Writer) { fmt.Fprint(w, osuUsageText) }, osuList) {
		return nil
	}
	ss, err := startSession("osu", kernel.NoThreadInit, stderr)
	if err != nil {
		return err
	}
	defer ss.close()
	if perr != nil {
		return ss.fail(perr)
	}
	s, o := cfg.spec, &cfg.opt
	if err := o.CheckWorld(s, ss.size); err != nil {
		return ss.fail(usageErr("%v", err))
	}
	if strings.Contains(os.Getenv("GOMB_FAULT"), "check-corrupt") {
		mpi.SetFaultCorrupt(true)
	}
	eng := &osurun.Engine{Opt: *o, World: ss.world, RunID: ss.out.runID}
	if o.Device != "" {
		eng.Staged = !mpi.CUDAAware()
		dev, err := ss.openDevice("-d cuda", ss.rank < 2 && o.Place[ss.rank] == 'D')
		if err != nil {
			return ss.fail(err)
		}
		eng.Device = dev
	}
	textOut, err := ss.openRecords(&cfg.rec, stdout, stderr)
	if err != nil {
		return ss.fail(err)
	}
	text := osutext.NewWriter(textOut)
	ss.out.flush = text.Flush
	run, err := ss.provenance("osu", args, map[string]any{"test": s.Name, "options": o})
	if err != nil {
		return ss.fail(err)
	}
	stop := ss.onSignal()
	defer stop()
	eng.Watch = ss.watch(cfg.watch, 0)
	if ss.rank == 0 {
		eng.Hosts = hosts(run)
		eng.Sink = osuSink{ss.out, text}
		ss.out.prog = newProgress(stderr, textOut, len(o.Sizes(s, ss.size)), cfg.progress)
		if p := ss.out.prog; p != nil {
			eng.Progress = func(size int64, done, total int) { p.step(s.Name, ss.size, size, !s.NoSize) }
		}
	}
	return ss.measure(func() (int, error) {
		sum, err := eng.Run(s)
		return sum.ValidationFailed, err
	}, nil, "-c: %d sizes failed validation")
}
