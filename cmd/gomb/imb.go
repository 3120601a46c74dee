package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/imbrun"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
)

const imbUsageText = `Usage: mpirun -np N gomb imb [flags] [benchmark ...]

Runs the IMB-MPI1 benchmarks with IMB-MPI1's measurement semantics, flags
and text tables, and writes every raw sample to a JSON Lines record file.
Without names, the IMB default list runs: %s.
Benchmark names are case-insensitive; 'gomb imb -list' shows them all.

IMB-MPI1 flags (one dash, value after a space):
  -npmin N              smallest #processes; then doubling up to all (2)
  -multi 0|1            run world/#processes groups at once; 1: a line per group
  -off_cache MB[,line]  cycle buffers over 2x MB to defeat the cache (-1: 8 MB, 64 B)
  -iter n[,MiB[,nonaggr]] repetitions per size and volume cap (1000,40,100)
  -iter_policy P        dynamic | off | multiple_np | auto (dynamic); or gomb's
                        precision: batches of repetitions until the 95%% interval of
                        every rank's median is within -precision, at most IMB's count
  -precision P          target of -iter_policy precision, 2%% or 0.02 (2%%); records
                        carry the precision every size reached, whatever the policy
  -time S               seconds per size target, and time-out base (10)
  -mem GB               buffer memory per process, GiB (1)
  -msglen FILE          message lengths, one per line (k/m suffixes, # comments)
  -msgsize a,b,c        message lengths on the command line
  -msglog [min:]max     sizes 0, 2^min .. 2^max (0:22)
  -map PxQ              number processes along the rows of a P x Q grid
  -input FILE           benchmark names, one per line
  -include a,b          add to the list;  -exclude a,b  remove from it
  -root_shift on|off    rotate the root every repetition (off)
  -sync on|off          barrier after each collective call, untimed (on)
  -imb_barrier on|off   use gomb's own dissemination barrier (off)
  -zero_size on|off     include the 0-byte size (on)
  -warm_up on|off       warm-up before each size (on)
  -msg_pause on|off     pause after each size (off)
  -data_type T          byte | char | int | float | double (byte)
  -red_data_type T      char | int | float | double (float)
  -contig_type base     only 'base' (contiguous data) is supported
  -window_size N        Uniband/Biband window (256)
  -thread_level L       single | funneled | serialized | multiple | nompinit (single:
                        MPI_Init_thread(MPI_THREAD_SINGLE), as IMB-MPI1; nompinit: MPI_Init)
  -list                 list the benchmarks and exit
  -help                 this text

gomb flags:
  -check                validate every received buffer and reduction result after
                        each size; failures are reported per benchmark and size and
                        the exit status is 3
  -samples on|off       keep every repetition's time (on); off: IMB's loop exactly,
                        no cycle-counter stamp per repetition, records keep means only
  -buffers imb|page     message buffers as IMB-MPI1 allocates them (imb: MPI_Alloc_mem
                        per size, not page-aligned) or page-aligned and kept over the
                        sweep (page); recorded in the run's options
  -json FILE, -o FILE   write JSON Lines records (run, one per size, end); '-' is
                        stdout, and the table then goes to stderr
` + archiveHelp + `` + watchHelp + `  -progress             a progress line on stderr (shown by itself when stderr is a
                        terminal and the table is not; launchers hand ranks a pipe)

Exit status: 0 success, 1 run failed, 2 bad flags or input, 3 -check failed,
128+signal when interrupted (records written so far stay valid).

Examples:
  mpirun -np 2 gomb imb PingPong
  mpirun -np 4 gomb imb -npmin 4 -json allreduce.jsonl Allreduce Bcast
  mpirun -np 2 gomb imb -msglen sizes.txt -iter 100 -iter_policy off Sendrecv
  mpirun -np 2 gomb imb -archive -system hpc4 -config ucx PingPong
  mpiexec -n 8 gomb imb -multi 1 PingPong           # 4 pairs at once
  srun -n 64 gomb imb -check -o check.jsonl Alltoall
`

// imbConfig is the parsed command line.
type imbConfig struct {
	opt              imb.Options
	names            []string
	include, exclude []string
	input, msglen    string
	msgsize          string
	thread           kernel.ThreadLevel
	rec              recordFlags
	watch            watchFlags
	list             bool
	progress         bool
	contig           string
	set              map[string]bool // flags given on the command line
}

func imbFlags(cfg *imbConfig) *flag.FlagSet {
	o := &cfg.opt
	fs := flag.NewFlagSet("gomb imb", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&o.NPMin, "npmin", o.NPMin, "")
	fs.IntVar(&o.Multi, "multi", o.Multi, "")
	fs.Var(offCacheValue{o}, "off_cache", "")
	fs.Var(iterValue{o}, "iter", "")
	fs.Var(policyValue{&o.Policy}, "iter_policy", "")
	fs.Var(precisionValue{&o.Precision}, "precision", "")
	fs.Float64Var(&o.TimeS, "time", o.TimeS, "")
	fs.Float64Var(&o.MemGB, "mem", o.MemGB, "")
	fs.StringVar(&cfg.msglen, "msglen", "", "")
	fs.StringVar(&cfg.msgsize, "msgsize", "", "")
	fs.Var(msglogValue{o}, "msglog", "")
	fs.Var(mapValue{o}, "map", "")
	fs.StringVar(&cfg.input, "input", "", "")
	fs.Var(listValue{&cfg.include}, "include", "")
	fs.Var(listValue{&cfg.exclude}, "exclude", "")
	fs.Var(switchValue{&o.RootShift}, "root_shift", "")
	fs.Var(switchValue{&o.Sync}, "sync", "")
	fs.Var(switchValue{&o.IMBBarrier}, "imb_barrier", "")
	fs.Var(switchValue{&o.ZeroSize}, "zero_size", "")
	fs.Var(switchValue{&o.WarmUp}, "warm_up", "")
	fs.Var(switchValue{&o.MsgPause}, "msg_pause", "")
	fs.Var(dtypeValue{&o.Type}, "data_type", "")
	fs.Var(dtypeValue{&o.RedType}, "red_data_type", "")
	fs.StringVar(&cfg.contig, "contig_type", "base", "")
	fs.IntVar(&o.Window, "window_size", o.Window, "")
	fs.Func("thread_level", "", func(s string) (err error) {
		cfg.thread, err = kernel.ParseThreadLevel(s)
		return err
	})
	fs.BoolVar(&cfg.list, "list", false, "")
	fs.BoolVar(&cfg.progress, "progress", false, "")
	fs.BoolVar(&o.Check, "check", false, "")
	fs.Var(offSwitch{&o.NoSamples}, "samples", "")
	fs.Func("buffers", "", func(s string) (err error) {
		if o.Buffers, err = kernel.ParseBuffers(s); err == nil && o.Buffers == kernel.BuffersMalloc {
			err = fmt.Errorf("-buffers %s: want imb or page", s)
		}
		return err
	})
	cfg.rec.register(fs)
	cfg.watch.register(fs)
	return fs
}

// parseIMB parses the command line without touching MPI or files. It
// returns flag.ErrHelp for -help.
func parseIMB(args []string) (*imbConfig, error) {
	cfg := &imbConfig{opt: imb.DefaultOptions(), thread: kernel.ThreadSingle}
	fs := imbFlags(cfg)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return cfg, err
	}
	if err != nil {
		return cfg, usageErr("%v ('gomb imb -help' lists the flags)", strings.TrimPrefix(err.Error(), "flag: "))
	}
	cfg.names = pos
	cfg.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cfg.set[f.Name] = true })
	if cfg.contig != "base" {
		return cfg, usageErr("-contig_type %q is not supported (only base)", cfg.contig)
	}
	if cfg.set["precision"] && cfg.opt.Policy != imb.PolicyPrecision {
		return cfg, usageErr("-precision sets the target of -iter_policy precision; add -iter_policy precision")
	}
	if cfg.msglen != "" && cfg.msgsize != "" {
		return cfg, usageErr("-msglen and -msgsize both give the sizes; use one")
	}
	if cfg.msgsize != "" {
		if cfg.opt.Sizes, err = imb.ParseMsgSize(cfg.msgsize); err != nil {
			return cfg, usageErr("%v", err)
		}
	}
	if err := cfg.opt.Validate(); err != nil {
		return cfg, usageErr("%v", err)
	}
	return cfg, nil
}

func imbUsage(w io.Writer) {
	fmt.Fprintf(w, imbUsageText, strings.Join(imb.DefaultNames(), ", "))
}

func imbList(w io.Writer) {
	fmt.Fprintf(w, "# IMB-MPI1 benchmarks in gomb (* = default list, in run order)\n")
	for _, s := range imb.Specs(imb.Suite) {
		mark := " "
		if s.Default {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %-24s %s\n", mark, s.Name, s.Summary)
	}
}

// imbSink is rank 0's imb.Sink: IMB text plus records, under the
// session's lock.
type imbSink struct {
	out  *output
	text *imbtext.Writer
}

func (k imbSink) Table(t *imb.Table) error {
	return k.out.locked(func() error { return k.text.Table(t) })
}

func (k imbSink) Invalid(s *imb.Spec, np int) error {
	return k.out.locked(func() error { return k.text.Invalid(s, np) })
}

func (k imbSink) Result(r *result.Result) error { return k.out.result(r, k.text.Result) }

func runIMB(stdout, stderr io.Writer, args []string) error {
	cfg, perr := parseIMB(args)
	if early(perr, cfg.list, stdout, imbUsage, imbList) {
		return nil
	}
	ss, err := startSession("imb", cfg.thread, stderr)
	if err != nil {
		return err
	}
	defer ss.close()
	if perr != nil {
		return ss.fail(perr)
	}

	// Rank 0 resolves files and names; every rank gets the same plan.
	var plan imb.Plan
	if ss.rank == 0 {
		p, err := imb.Resolve(imb.Request{Options: cfg.opt, Names: cfg.names, Include: cfg.include,
			Exclude: cfg.exclude, Input: cfg.input, MsgLen: cfg.msglen, NPMinSet: cfg.set["npmin"]}, ss.size)
		if err != nil {
			p = &imb.Plan{Err: err.Error()}
		}
		plan = *p
	}
	if err := ss.bcastJSON(&plan); err != nil {
		return ss.fail(err)
	}
	if plan.Err != "" {
		return ss.fail(usageErr("%s", plan.Err))
	}
	var specs []*imb.Spec
	for _, n := range plan.Benchmarks {
		s, _ := imb.Lookup(imb.Suite, n)
		specs = append(specs, s)
		if s.Reduction && !mpi.DatatypeUsable(plan.Options.RedType, true) {
			return ss.fail(usageErr("-red_data_type %s: this MPI library does not reduce that type with MPI_SUM",
				strings.ToLower(strings.TrimPrefix(plan.Options.RedType.String(), "MPI_"))))
		}
	}
	if strings.Contains(os.Getenv("GOMB_FAULT"), "check-corrupt") {
		mpi.SetFaultCorrupt(true)
	}
	delay, err := bench.DelayFromEnv()
	if err != nil {
		return ss.fail(usageErr("%v", err))
	}
	textOut, err := ss.openRecords(&cfg.rec, stdout, stderr)
	if err != nil {
		return ss.fail(err)
	}
	text := imbtext.NewWriter(textOut)
	ss.out.flush = text.Flush
	run, err := ss.provenance(imb.Suite, args, plan.Options)
	if err != nil {
		return ss.fail(err)
	}
	stop := ss.onSignal()
	defer stop()

	eng := &imbrun.Engine{Opt: plan.Options, World: ss.world, RunID: ss.out.runID, Delay: delay,
		Watch: ss.watch(cfg.watch, time.Duration(3*plan.Options.TimeS*float64(time.Second)))}
	if err := ss.onRoot(func() error { return text.Preamble(imbHeader(run, &plan, cfg)) }); err != nil {
		return ss.fail(err)
	}
	if ss.rank == 0 {
		eng.Hosts = hosts(run)
		eng.Sink = imbSink{ss.out, text}
		ss.out.prog = newProgress(stderr, textOut, plan.Options.Rows(specs, ss.size), cfg.progress)
		if ss.out.prog != nil {
			eng.Progress = ss.out.prog
		}
	}

	return ss.measure(func() (int, error) {
		sum, err := eng.Run(specs)
		return sum.CheckFailures, err
	}, text.Footer, "-check: %d result rows failed validation (marked '# !! check failed' above)")
}

func imbHeader(run *result.Run, plan *imb.Plan, cfg *imbConfig) imbtext.Header {
	r0 := run.Ranks[0]
	thread := "" // IMB-MPI1 prints none; gomb names the level when asked for one
	if cfg.set["thread_level"] {
		thread = run.MPI.Thread
	}
	h := imbtext.Header{
		Tool:       "gomb " + version + " (IMB-MPI1 2021.11 compatible)",
		Date:       run.Start,
		Machine:    r0.Machine,
		System:     "Linux",
		Release:    r0.Kernel,
		Version:    r0.KernelVersion,
		MPIVersion: run.MPI.Standard,
		Thread:     thread,
		Argv:       run.Command,
		UserSizes:  plan.Options.Sizes != nil,
		MaxMsg:     int64(1) << plan.Options.MsgLogMax,
		Type:       plan.Options.Type.String(),
		RedType:    plan.Options.RedType.String(),
		Benchmarks: plan.Benchmarks,
	}
	for _, s := range plan.Options.Sizes {
		if s > h.MaxMsg {
			h.Capped = append(h.Capped, s)
		}
	}
	return h
}
