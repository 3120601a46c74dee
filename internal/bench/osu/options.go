package osu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Options are OSU's run options (getopt flags -m -i -x -f -W -M -c -T -k -l
// -z -d -w -s -t and the buffer placement arguments).
type Options struct {
	// MinSize and MaxSize bound the sizes in bytes (-m [MIN:]MAX); MaxSize
	// 0 means the test's default.
	MinSize int64 `json:"min_size"`
	MaxSize int64 `json:"max_size"`
	// Iter and Skip override the iteration and warm-up counts for small and
	// large messages alike (-i, -x); Iter 0 and Skip nil keep OSU's.
	Iter int  `json:"iterations,omitempty"`
	Skip *int `json:"warmup,omitempty"`
	// Full adds min, max and iterations (-f).
	Full bool `json:"full"`
	// Window is the bandwidth window (-W).
	Window int `json:"window"`
	// MemLimit caps the buffer bytes per process (-M); larger sizes are
	// dropped.
	MemLimit int64 `json:"mem_limit"`
	// Validate checks the data of every size (-c); ValidationLog is OSU
	// 7.4's -c log[:DIR]: every wrong element into DIR/log-RANK.log.
	Validate      bool   `json:"validate"`
	ValidationLog string `json:"validation_log,omitempty"`
	// Type is the element type (-T).
	Type kernel.Datatype `json:"data_type"`
	// Root is the root of rooted collectives; RootRotate moves it every
	// iteration (-k fixed:R | rotate).
	Root       int  `json:"root"`
	RootRotate bool `json:"root_rotate"`
	// InPlace uses MPI_IN_PLACE (-l).
	InPlace bool `json:"in_place"`
	// Percentiles adds OSU's tail columns (-z [LIST]): the percentiles in
	// PercentileList (nil: 50, 90 and 99) of the per-iteration values.
	Percentiles    bool  `json:"percentiles"`
	PercentileList []int `json:"percentile_list,omitempty"`
	// Device is "" (host memory) or "cuda" (-d); Place holds the buffer
	// placement of rank 0 and rank 1 ('H' or 'D').
	Device string  `json:"device,omitempty"`
	Place  [2]byte `json:"-"`
	// Win and Sync override the one-sided defaults (-w, -s).
	Win     kernel.WinMode  `json:"win"`
	Sync    kernel.SyncMode `json:"sync"`
	WinSet  bool            `json:"win_set"`
	SyncSet bool            `json:"sync_set"`
	// NTest is the number of MPI_Test calls during the compute of
	// non-blocking tests (-t).
	NTest int `json:"num_test_calls"`
	// SendThreads and RecvThreads are osu_latency_mt's threads on rank 0
	// and rank 1 (-t [SEND:]RECV); SendSet: SEND was given.
	SendThreads int  `json:"sender_threads,omitempty"`
	RecvThreads int  `json:"receiver_threads,omitempty"`
	SendSet     bool `json:"sender_threads_set,omitempty"`
	// SendProcs and RecvProcs are osu_latency_mp's forked processes on
	// rank 0 and rank 1 (-t [SEND:]RECV).
	SendProcs int `json:"sender_processes,omitempty"`
	RecvProcs int `json:"receiver_processes,omitempty"`
	// Topology is the neighbourhood collectives' graph (-N; Check sets
	// OSU's default, cart:1:1, for them).
	Topology *Topology `json:"topology,omitempty"`
	// DDT is -D: every message one derived datatype.
	DDT *DDT `json:"ddt,omitempty"`
	// Session is -I: MPI started through an MPI-4 session (MPI_Session_init,
	// the "mpi://WORLD" process set's communicator) instead of MPI_Init.
	Session bool `json:"session,omitempty"`
	// Graph is -G: after the test, a graph of every size's per-iteration
	// values on the terminal ("tty") and as PNG files ("png").
	Graph []string `json:"graph,omitempty"`

	tArg string // -t as given: read by Check, which knows the test
}

// DefaultOptions returns OSU 7.2's defaults.
func DefaultOptions() Options {
	return Options{MinSize: 1, Window: 64, MemLimit: 512 << 20, Type: kernel.Char, Place: [2]byte{'H', 'H'}}
}

// Check checks the options against a test (and reads -t for it).
func (o *Options) Check(s *Spec) error {
	if err := o.readT(s); err != nil {
		return err
	}
	switch {
	case o.MinSize < 0 || (o.MaxSize != 0 && o.MaxSize < o.MinSize):
		return fmt.Errorf("-m %d:%d: want 0 <= MIN <= MAX", o.MinSize, o.MaxSize)
	case o.MaxSize/int64(o.ElemType(s).Size()) > math.MaxInt32:
		return fmt.Errorf("-m %d: OSU's tests send a message with one MPI call of an int count, at most %d elements; "+
			"gomb imb runs larger messages through MPI-4's large-count calls", o.MaxSize, math.MaxInt32)
	case o.Iter < 0 || o.Skip != nil && *o.Skip < 0:
		return fmt.Errorf("-i and -x must not be negative")
	case o.Window <= 0 || o.Window > 1<<16:
		return fmt.Errorf("-W must be between 1 and 65536, got %d", o.Window)
	case o.MemLimit <= 0:
		return fmt.Errorf("-M must be a positive number of bytes")
	case o.NTest < 0:
		return fmt.Errorf("-t must not be negative")
	case o.InPlace && s.Kind != Collective:
		return fmt.Errorf("-l (MPI_IN_PLACE) applies to blocking collectives only")
	case o.InPlace && s.Neighbour():
		return fmt.Errorf("-l: MPI has no MPI_IN_PLACE for neighbourhood collectives")
	case o.DDT != nil && !s.TakesDDT():
		return fmt.Errorf("-D applies to the point-to-point tests and the collectives that move data without reducing it (not %s)", s.Name)
	case o.DDT != nil && o.Validate:
		return fmt.Errorf("-c cannot validate derived datatypes (-D); OSU refuses it too")
	case o.DDT != nil && o.Device != "":
		return fmt.Errorf("-D and -d cuda: derived datatypes run on host buffers")
	case o.Topology != nil && !s.Neighbour():
		return fmt.Errorf("-N applies to the neighbourhood collectives (neighbor_*, ineighbor_*)")
	case o.InPlace && o.Validate:
		return fmt.Errorf("-c cannot validate -l (MPI_IN_PLACE) runs")
	case o.Device != "" && o.Device != "cuda":
		return fmt.Errorf("-d %q: gomb supports -d cuda", o.Device)
	case o.Device != "" && s.Kind != Latency && s.Kind != Bandwidth && s.Kind != MsgRate:
		return fmt.Errorf("-d cuda applies to the point-to-point tests (latency, bw, bibw, mbw_mr, multi_lat)")
	case s.Kind == Startup && (o.Validate || o.Percentiles || o.Full || o.Device != "" || len(o.Graph) > 0):
		return fmt.Errorf("%s times MPI_Init once a rank: no -c, -z, -f, -d or -G", s.Name)
	case o.Device != "" && (s.Processes || s.Threads || s.IsFan()):
		return fmt.Errorf("-d cuda: %s runs on host buffers", s.Name)
	case o.Session && (s.Kind == Startup || s.Threads):
		return fmt.Errorf("-I: %s starts MPI its own way (MPI_Init or MPI_Init_thread)", s.Name)
	case o.ValidationLog != "" && s.Threads:
		return fmt.Errorf("-c log: latency_mt's threads keep only their first wrong byte; run -c without log")
	case o.Validate && s.IsFan():
		return fmt.Errorf("-c: %s has no validation (OSU 7.4 has none for it either)", s.Name)
	case o.Device != "" && o.Validate:
		return fmt.Errorf("-c cannot validate device buffers")
	case (o.WinSet || o.SyncSet) && s.Kind != RMALatency && s.Kind != RMABandwidth:
		return fmt.Errorf("-w and -s apply to the one-sided tests")
	case o.RootRotate && !s.Rooted, o.Root != 0 && !s.Rooted:
		return fmt.Errorf("-k applies to rooted collectives")
	case s.Job.Persist && s.Kind == Collective && (o.InPlace || o.RootRotate || o.Root != 0):
		return fmt.Errorf("%s: a persistent request has its root and buffers fixed; gomb takes no -l or -k here (root 0)", s.Name)
	}
	if s.Neighbour() && o.Topology == nil {
		t := DefaultTopology
		o.Topology = &t
	}
	if o.SyncSet && !hasSync(s.SyncModes, o.Sync) {
		return fmt.Errorf("-s %s is not valid for %s", syncNames[o.Sync][0], s.Name)
	}
	if s.Reduction || s.Kind == RMALatency || s.Kind == RMABandwidth {
		if o.Type == kernel.Byte {
			return fmt.Errorf("-T: reductions need a typed element (mpi_char, mpi_int, mpi_float, mpi_double)")
		}
	}
	return nil
}

// GraphOn reports whether -G asks for output kind ("tty", "png").
func (o *Options) GraphOn(kind string) bool { return slices.Contains(o.Graph, kind) }

// parseGraph reads -G: tty, png or both, separated by commas.
func parseGraph(s string) ([]string, error) {
	var out []string
	for _, w := range strings.Split(s, ",") {
		switch w = strings.ToLower(strings.TrimSpace(w)); w {
		case "tty", "png":
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		default:
			return nil, fmt.Errorf("-G %q: want tty, png or tty,png", s)
		}
	}
	return out, nil
}

// MaxPercentiles is how many tail columns -z takes (OSU's
// OMB_STAT_MAX_NUM).
const MaxPercentiles = 5

// TailList is the percentiles of the tail columns, nil without -z.
func (o *Options) TailList() []int {
	switch {
	case !o.Percentiles:
		return nil
	case len(o.PercentileList) > 0:
		return o.PercentileList
	}
	return []int{50, 90, 99}
}

// zFlag is -z: alone, OSU 7.3's P50, P90, P99; -z=LIST, OSU 7.4's list of
// up to five whole percentiles 0 to 100.
type zFlag struct{ o *Options }

func (z zFlag) IsBoolFlag() bool { return true }

func (z zFlag) String() string {
	if z.o == nil || !z.o.Percentiles {
		return ""
	}
	return fmt.Sprint(z.o.TailList())
}

func (z zFlag) Set(s string) error {
	switch s {
	case "true":
		z.o.Percentiles, z.o.PercentileList = true, nil
		return nil
	case "false":
		z.o.Percentiles, z.o.PercentileList = false, nil
		return nil
	}
	var list []int
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 0 || p > 100 {
			return fmt.Errorf("want whole percentiles 0 to 100 separated by commas (OSU reads 99.9 as 99: write 99)")
		}
		list = append(list, p)
	}
	if len(list) > MaxPercentiles {
		return fmt.Errorf("at most %d percentiles, got %d", MaxPercentiles, len(list))
	}
	z.o.Percentiles, z.o.PercentileList = true, list
	return nil
}

// ValidationLogDir is OSU 7.4's directory for -c log without a path.
const ValidationLogDir = "validation_output"

// cFlag is -c: alone, validation; -c=log or -c=log:DIR (OSU 7.4's
// -clog:DIR), validation with every wrong element logged.
type cFlag struct{ o *Options }

func (c cFlag) IsBoolFlag() bool { return true }

func (c cFlag) String() string {
	if c.o == nil || !c.o.Validate {
		return ""
	}
	if c.o.ValidationLog != "" {
		return "log:" + c.o.ValidationLog
	}
	return "true"
}

func (c cFlag) Set(s string) error {
	switch {
	case s == "true":
		c.o.Validate, c.o.ValidationLog = true, ""
	case s == "false":
		c.o.Validate, c.o.ValidationLog = false, ""
	case s == "log":
		c.o.Validate, c.o.ValidationLog = true, ValidationLogDir
	case strings.HasPrefix(s, "log:") && len(s) > 4:
		c.o.Validate, c.o.ValidationLog = true, s[4:]
	default:
		return fmt.Errorf("want -c, -clog or -clog:DIR, got %q", s)
	}
	return nil
}

// maxThreads bounds osu_latency_mt's threads and osu_latency_mp's
// processes a side (OSU's MAX_NUM_THREADS and MAX_NUM_PROCESSES, exclusive).
const maxThreads = 128

// readT reads -t: osu_latency_mt's [SEND:]RECV threads, osu_latency_mp's
// processes, or the MPI_Test calls of the non-blocking tests.
func (o *Options) readT(s *Spec) error {
	if s.Threads && o.RecvThreads == 0 {
		o.SendThreads, o.RecvThreads = 1, 2 // OSU's defaults
	}
	if s.Processes && o.RecvProcs == 0 && o.SendProcs == 0 {
		o.SendProcs, o.RecvProcs = 2, 2
	}
	if o.tArg == "" {
		return nil
	}
	if !s.Threads && !s.Processes {
		n, err := strconv.Atoi(o.tArg)
		if err != nil {
			return fmt.Errorf("-t %q: want a number of MPI_Test calls", o.tArg)
		}
		o.NTest = n
		return nil
	}
	what := "threads"
	if s.Processes {
		what = "processes"
	}
	send, recv, two := strings.Cut(o.tArg, ":")
	if !two {
		// osu_latency_mp: RECV alone leaves the sender none; latency_mt one
		send, recv = "1", send
		if s.Processes {
			send = "0"
		}
	}
	a, err1 := strconv.Atoi(send)
	b, err2 := strconv.Atoi(recv)
	// SEND given is at least 1; the default one above may be 0
	if err1 != nil || err2 != nil || two && a < 1 || b < 1 || a >= maxThreads || b >= maxThreads {
		return fmt.Errorf("-t %q: want RECV or SEND:RECV %s, each 1 to %d", o.tArg, what, maxThreads-1)
	}
	if s.Processes {
		o.SendProcs, o.RecvProcs = a, b
		return nil
	}
	o.SendThreads, o.RecvThreads, o.SendSet = a, b, two
	return nil
}

// TagPerIter: osu_latency_mt tags each iteration by its number when the
// senders were given and are more than one (OSU's sender_thread > 1).
func (o *Options) TagPerIter() bool { return o.SendSet && o.SendThreads > 1 }

func hasSync(list []kernel.SyncMode, m kernel.SyncMode) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}

// ParseType reads -T: mpi_char, mpi_int, mpi_float, mpi_double.
func ParseType(s string) (kernel.Datatype, error) {
	switch s {
	case "mpi_char":
		return kernel.Char, nil
	case "mpi_int":
		return kernel.Int, nil
	case "mpi_float":
		return kernel.Float, nil
	case "mpi_double":
		return kernel.Double, nil
	}
	return 0, fmt.Errorf("unknown -T %q (want mpi_char, mpi_int, mpi_float or mpi_double)", s)
}

// large is OSU's switch from small- to large-message counts.
const large = 8192

// Counts returns OSU's iterations and warm-up for a size.
func (o *Options) Counts(s *Spec, size int64) (iters, skip int) {
	small := size <= large
	switch s.Kind {
	case Latency, RMALatency, OneWay:
		iters, skip = pick(small, 10000, 1000), pick(small, 100, 10)
	case Bandwidth, MsgRate, RMABandwidth:
		iters, skip = pick(small, 100, 20), pick(small, 10, 2)
	default:
		iters, skip = pick(small, 1000, 100), pick(small, 100, 10)
	}
	if o.Iter > 0 {
		iters = o.Iter
	}
	if o.Skip != nil {
		skip = *o.Skip
	}
	return iters, skip
}

func pick(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}

// SizesOfAll are the message sizes specs measure at np ranks, each once,
// in the order they first come.
func (o *Options) SizesOfAll(specs []*Spec, np int) []int64 {
	var out []int64
	for _, s := range specs {
		for _, b := range o.Sizes(s, np) {
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// Sizes returns the message sizes in bytes: from MIN doubling up to MAX
// (OSU 7.2 skips 0), without those whose element count is 0 or whose
// buffers exceed the memory limit; [0] for tests without a size.
func (o *Options) Sizes(s *Spec, np int) []int64 {
	if s.NoSize {
		return []int64{0}
	}
	if s.FixedSize > 0 {
		return []int64{s.FixedSize}
	}
	maxSize := o.MaxSize
	if maxSize == 0 {
		maxSize = 1 << s.MaxLog
	}
	esz := int64(o.ElemType(s).Size())
	var out []int64
	for size := max(o.MinSize, 1); size <= maxSize; size *= 2 {
		if size < esz {
			continue
		}
		snd, rcv := s.Buffers(size, np, o.Window)
		if snd+rcv > o.MemLimit {
			break
		}
		out = append(out, size)
	}
	return out
}

// ElemType is the element type of a test's messages.
func (o *Options) ElemType(s *Spec) kernel.Datatype {
	if s.Job.Type == kernel.LongLong { // fetch_and_op, compare_and_swap
		return kernel.LongLong
	}
	return o.Type
}

// CheckWorld says what keeps test s from running on world processes with
// these options: a process count it cannot use, a root that is no rank,
// or no message size left.
func (o *Options) CheckWorld(s *Spec, world int) error {
	switch {
	case s.ExactRanks > 0 && world != s.ExactRanks:
		return fmt.Errorf("%s needs exactly %d processes, %d started", s.Name, s.ExactRanks, world)
	case world < s.MinRanks:
		return fmt.Errorf("%s needs at least %d processes, %d started", s.Name, s.MinRanks, world)
	case s.Job.Pairs && world%2 != 0:
		return fmt.Errorf("%s pairs the processes and needs an even number, %d started", s.Name, world)
	case s.Rooted && o.Root >= world:
		return fmt.Errorf("-k fixed:%d: no such rank among %d", o.Root, world)
	}
	sizes := o.Sizes(s, world)
	if len(sizes) == 0 {
		return errors.New("no message size left: check -m, -T and -M")
	}
	// an indexed type (its blocks read) must fit the largest message, whose
	// buffers every size has
	if d := o.DDT; d != nil && s.TakesDDT() {
		largest, esz := sizes[len(sizes)-1], int64(o.ElemType(s).Size())
		if r := d.Reach() * esz; r > largest {
			return fmt.Errorf("-D %s reaches %d bytes, past the largest message (%d bytes): raise -m", d, r, largest)
		}
	}
	return nil
}
