package imb

// IMB-MPI1's command-line syntax: its flags as flag.Values beside the
// parsers they use (sizes.go, options.go), each with its usage string, the
// one description of the flag that gomb imb -help prints.

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// CommandLine is what IMB-MPI1's command line asks for: the request, the
// MPI thread level, and what gomb checks before planning.
type CommandLine struct {
	Request
	MsgSize string             // -msgsize a,b,c
	Thread  kernel.ThreadLevel // -thread_level
	Contig  string             // -contig_type: only "base"
	Set     map[string]bool    // after Finish: the flags given
}

// NewCommandLine holds IMB-MPI1's defaults.
func NewCommandLine() *CommandLine {
	return &CommandLine{Request: Request{Options: DefaultOptions()}, Thread: kernel.ThreadSingle, Contig: "base"}
}

// Register adds the suite's flags to fs: IMB-MPI1's (IMB-EXT and IMB-RMA
// add -aggregate_mode, IMB-RMA has no -data_type and -red_data_type), and
// gomb's own flags of the IMB engine (-check, -samples, -buffers,
// -precision).
func (c *CommandLine) Register(fs *flag.FlagSet) {
	o := &c.Options
	fs.Var(cli.Int{P: &o.NPMin, Min: 1, What: "processes"}, "npmin", "`N` smallest #processes; then doubling up to all started (idle ranks wait in MPI_Barrier)")
	fs.Var(multiValue{&o.Multi}, "multi", "`0|1` run world/#processes groups at once; 0: one line over all groups, 1: a line per group")
	fs.Var(offCacheValue{o}, "off_cache", "`MB[,line]` cycle the buffers over 2 x MB so the data is not in cache; -1: 8 MB, 64 B lines")
	fs.Var(iterValue{o}, "iter", "`n[,MiB[,nonaggr]]` repetitions per size and the volume cap in MiB")
	fs.Var(policyValue{&o.Policy}, "iter_policy", "`P` dynamic, off, multiple_np, auto; or gomb's precision: batches of repetitions until the 95% interval of every rank's median is within -precision, at most IMB's count")
	fs.Var(precisionValue{&o.Precision}, "precision", "`P` target of -iter_policy precision, 2% or 0.02; records carry the precision every size reached, whatever the policy")
	fs.Var(cli.Float{P: &o.TimeS, Min: 0, Above: true, Max: 1e6, What: "seconds"}, "time", "`S` seconds per size target; the benchmark's budget is S x (sizes - 1)")
	fs.Var(cli.Float{P: &o.MemGB, Min: 0, Above: true, Max: 1 << 20, What: "GiB"}, "mem", "`GB` buffer memory per process in GiB; larger sizes print out-of-mem.")
	fs.StringVar(&c.MsgLen, "msglen", "", "`FILE` message lengths, one per line (k, m and g suffixes, # comments); capped at 2^max of -msglog")
	fs.StringVar(&c.MsgSize, "msgsize", "", "`a,b,c` message lengths on the command line (k, m, g suffixes); capped at 2^max of -msglog")
	fs.Var(msglogValue{o}, "msglog", "`[min:]max` sizes 0, 2^min ... 2^max; max up to 34 (IMB stops at 30): buffers past 2 GiB go through MPI-4's large-count calls (MPICH 4), or print int-overflow with the reason")
	fs.Var(mapValue{o}, "map", "`PxQ` number the processes along the rows of a P x Q grid")
	fs.StringVar(&c.Input, "input", "", "`FILE` benchmark names, one per line")
	fs.Var(listValue{&c.Include}, "include", "`a,b` add benchmarks to the list")
	fs.Var(listValue{&c.Exclude}, "exclude", "`a,b` remove benchmarks from the list")
	fs.Var(cli.Switch{P: &o.RootShift}, "root_shift", "`on|off` rotate the root every repetition")
	fs.Var(cli.Switch{P: &o.Sync}, "sync", "`on|off` barrier after each collective call, outside the timer")
	fs.Var(cli.Switch{P: &o.IMBBarrier}, "imb_barrier", "`on|off` gomb's own dissemination barrier instead of MPI_Barrier")
	fs.Var(cli.Switch{P: &o.ZeroSize}, "zero_size", "`on|off` include the 0-byte size")
	fs.Var(cli.Switch{P: &o.WarmUp}, "warm_up", "`on|off` warm-up before each size")
	fs.Var(cli.Switch{P: &o.MsgPause}, "msg_pause", "`on|off` pause after each size")
	suite := o.SuiteName()
	if suite != SuiteRMA && suite != SuiteIO { // IMB-RMA moves MPI_BYTE and reduces MPI_FLOAT, IMB-IO writes bytes: no flag says otherwise
		fs.Var(dtypeValue{&o.Type}, "data_type", "`T` byte, char, int, float, double; float16, bfloat16 where the MPI has them")
		fs.Var(dtypeValue{&o.RedType}, "red_data_type", "`T` char, int, float or double, for the reductions")
	}
	fs.StringVar(&c.Contig, "contig_type", c.Contig, "`base` only contiguous data (base) is supported")
	fs.Var(cli.Int{P: &o.Window, Min: 1, Max: 1 << 20, What: "messages in a window"}, "window_size", "`N` Uniband and Biband window")
	if suite == SuiteIO {
		fs.StringVar(&o.IODir, "dir", "", "`DIR` directory of the files (IMB_out, IMB_out_<rank>), one every rank reaches (a shared file system across nodes); default: a new directory under the working directory, removed after the run (with -dir, the IMB_out files are removed after the run)")
	}
	if suite == SuiteEXT || suite == SuiteRMA || suite == SuiteIO {
		fs.Var(aggregateValue{&o.AggregateMode}, "aggregate_mode", "`M` aggregate, non_aggregate or multi (both modes, the default) for the benchmarks that have two")
	}
	fs.Func("thread_level", "`L` single, funneled, serialized, multiple or nompinit (default single: MPI_Init_thread(MPI_THREAD_SINGLE), as IMB-MPI1; nompinit: plain MPI_Init)", func(s string) (err error) {
		c.Thread, err = kernel.ParseThreadLevel(s)
		return err
	})
	check := "after each size, one untimed validated call per check pattern: every received buffer and every reduction result is compared with what the senders must have produced"
	if suite == SuiteIO {
		check = "after each size, the records the writes wrote are read back (by the file's rank 0) and every byte compared with what the ranks wrote; the reads read the first record again and compare it with the file"
	}
	fs.BoolVar(&o.Check, "check", false, check+"; tables gain IMB's defects column, failures print '# !! check failed' lines, and the exit status is 3")
	fs.Var(cli.Samples{None: &o.NoSamples, All: &o.AllSamples}, "samples", "`all|auto|none` which repetition times the records keep: all, every timing rank's; auto, every rank's up to 64 timing ranks, above that those of rank 0, the slowest, the fastest and 5 at random, with every rank's min, max, median and 99th percentile (about 0.2 MB a record at 4,096 ranks instead of 35 MB); none runs IMB's loop exactly, without a cycle-counter read per repetition, and records keep each rank's mean only (on and off: all and none)")
	fs.BoolVar(&o.NIC, "nic", false, "record what each host's network interfaces (/sys/class/net, InfiniBand ports) carried while each size's timed loop ran, in the result records; costs one more small gather between sizes, which moves shared-memory small-message times as any extra message does, so it is off by default")
	fs.Var(buffersValue{&o.Buffers}, "buffers", "`imb|page` message buffers as IMB-MPI1 makes them (imb: MPI_Alloc_mem of each size's bytes, freed after the size) or page-aligned and kept over the sweep (page: 5-30% faster than IMB's at 64 KiB and above for reductions); recorded in the run's options")
}

// Finish completes the command line once fs has parsed it: names are the
// benchmarks named, Set the flags given. It checks what no single flag can.
func (c *CommandLine) Finish(fs *flag.FlagSet, names []string) error {
	c.Names = names
	c.Set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.Set[f.Name] = true })
	c.NPMinSet = c.Set["npmin"]
	if c.Contig != "base" {
		return fmt.Errorf("-contig_type %q is not supported (only base)", c.Contig)
	}
	if c.Set["precision"] && c.Options.Policy != PolicyPrecision {
		return fmt.Errorf("-precision sets the target of -iter_policy precision; add -iter_policy precision")
	}
	if c.MsgLen != "" && c.MsgSize != "" {
		return fmt.Errorf("-msglen and -msgsize both give the sizes; use one")
	}
	if c.MsgSize != "" {
		var err error
		if c.Options.Sizes, err = ParseMsgSize(c.MsgSize); err != nil {
			return err
		}
	}
	return c.Options.Validate()
}

// aggregateValue is -aggregate_mode aggregate|non_aggregate|multi, kept as
// the one mode to run ("" for multi).
type aggregateValue struct{ p *string }

func (v aggregateValue) String() string {
	if v.p == nil || *v.p == "" {
		return "multi"
	}
	return strings.ReplaceAll(*v.p, "-", "_")
}

func (v aggregateValue) Set(s string) error {
	switch strings.ToLower(s) {
	case "multi":
		*v.p = ""
	case "aggregate":
		*v.p = result.ModeAggregate
	case "non_aggregate":
		*v.p = result.ModeNonAggregate
	default:
		return fmt.Errorf("want aggregate, non_aggregate or multi, got %q", s)
	}
	return nil
}

// multiValue is -multi 0|1 (unset: off, Options.Multi -1).
type multiValue struct{ p *int }

func (v multiValue) String() string {
	if v.p == nil || *v.p < 0 {
		return "off"
	}
	return strconv.Itoa(*v.p)
}

func (v multiValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want 0 or 1, got %q", s)
	}
	*v.p = n // Validate says what is allowed
	return nil
}

// iterValue is -iter msgspersample[,overall_vol[,msgs_nonaggr]].
type iterValue struct{ o *Options }

func (v iterValue) String() string {
	if v.o == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d,%d", v.o.MsgsPerSample, v.o.OverallVolMiB, v.o.MsgsNonAggr)
}

func (v iterValue) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return fmt.Errorf("want n[,vol_MiB[,nonaggr]], got %q", s)
	}
	dst := []*int{&v.o.MsgsPerSample, &v.o.OverallVolMiB, &v.o.MsgsNonAggr}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return fmt.Errorf("want positive integers n[,vol_MiB[,nonaggr]], got %q", s)
		}
		if n > cli.MaxCount {
			return fmt.Errorf("want n[,vol_MiB[,nonaggr]] of at most %d each (MPI's int), got %q", cli.MaxCount, s)
		}
		*dst[i] = n
	}
	return nil
}

// offCacheValue is -off_cache cache_size_MB[,line_size_B]; -1 means 8 MB, 64 B.
type offCacheValue struct{ o *Options }

func (v offCacheValue) String() string {
	if v.o == nil || !v.o.OffCache {
		return ""
	}
	return fmt.Sprintf("%g,%d", v.o.CacheMB, v.o.CacheLine)
}

func (v offCacheValue) Set(s string) error {
	a, b, two := strings.Cut(s, ",")
	mb, err := cli.ParseFloat(strings.TrimSpace(a))
	if err != nil {
		return fmt.Errorf("want cache_size_MB[,line_size], got %q", s)
	}
	line := 64
	if two {
		if line, err = strconv.Atoi(strings.TrimSpace(b)); err != nil || line <= 0 {
			return fmt.Errorf("want a positive cache line size in bytes, got %q", b)
		}
	}
	if mb < 0 {
		mb = 8
	}
	if mb == 0 {
		return fmt.Errorf("cache size must not be 0")
	}
	v.o.OffCache, v.o.CacheMB, v.o.CacheLine = true, mb, line
	return nil
}

// msglogValue is -msglog [min:]max.
type msglogValue struct{ o *Options }

func (v msglogValue) String() string {
	if v.o == nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", v.o.MsgLogMin, v.o.MsgLogMax)
}

func (v msglogValue) Set(s string) (err error) {
	v.o.MsgLogMin, v.o.MsgLogMax, err = ParseMsgLog(s)
	return err
}

// mapValue is -map PxQ.
type mapValue struct{ o *Options }

func (v mapValue) String() string {
	if v.o == nil || v.o.MapP == 0 {
		return ""
	}
	return fmt.Sprintf("%dx%d", v.o.MapP, v.o.MapQ)
}

func (v mapValue) Set(s string) error {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	p, err1 := strconv.Atoi(a)
	q, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || p <= 0 || q <= 0 {
		return fmt.Errorf("want PxQ with positive integers, got %q", s)
	}
	v.o.MapP, v.o.MapQ = p, q
	return nil
}

// policyValue is -iter_policy.
type policyValue struct{ p *Policy }

func (v policyValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v policyValue) Set(s string) (err error) {
	*v.p, err = ParsePolicy(s)
	return err
}

// precisionValue is -precision: "1%" or the fraction 0.01.
type precisionValue struct{ p *float64 }

func (v precisionValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(100**v.p, 'g', -1, 64) + "%"
}

func (v precisionValue) Set(s string) error {
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	x, err := cli.ParseFloat(num)
	if pct {
		x /= 100
	}
	if err != nil || !(x > 0 && x < 1) {
		return fmt.Errorf("want a percentage above 0 and below 100 (2%%) or a fraction (0.02), got %q", s)
	}
	*v.p = x
	return nil
}

// dtypeValue is -data_type / -red_data_type.
type dtypeValue struct{ p *kernel.Datatype }

func (v dtypeValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(v.p.String(), "MPI_"))
}

func (v dtypeValue) Set(s string) (err error) {
	*v.p, err = kernel.ParseDatatype(s)
	return err
}

// buffersValue is -buffers imb|page (malloc is mpi-comm-bench's, not IMB's).
type buffersValue struct{ p *kernel.Buffers }

func (v buffersValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v buffersValue) Set(s string) error {
	b, err := kernel.ParseBuffers(s)
	if err == nil && b == kernel.BuffersMalloc {
		err = fmt.Errorf("-buffers %s: want imb or page", s)
	}
	if err == nil {
		*v.p = b
	}
	return err
}

// listValue collects comma-separated names; the flag may repeat.
type listValue struct{ p *[]string }

func (v listValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v listValue) Set(s string) error {
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			*v.p = append(*v.p, n)
		}
	}
	return nil
}
