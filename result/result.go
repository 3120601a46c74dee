// Package result defines gomb's record schema and its JSON Lines encoding.
//
// A measurement run is a stream of records, one JSON object per line:
//
//  1. one "run" record: provenance (tool, command line, MPI library, ranks,
//     hosts, binding, environment) and the options in force;
//  2. one "result" record per (benchmark, #processes, message size[, group]),
//     written as soon as that size is measured, with every raw sample;
//  3. one "end" record: how the run ended.
//
// A stream cut short (a killed job) still holds every finished size: each
// record is written with one write call and readers skip nothing but a torn
// last line. The schema is versioned by the Schema field of every record;
// docs/records.md describes every field.
//
// Package result is part of gomb's public Go API, with package importer
// (reading IMB, OSU and mpi-comm-bench logs and record files into these
// types) and the text layouts under textfmt; every other package of the
// module is internal to gomb and may change without notice.
package result

import (
	"strings"
	"time"
)

// Schema is the version tag written into every record.
const Schema = "gomb/v1"

// Record types.
const (
	TypeRun    = "run"
	TypeResult = "result"
	TypeEnd    = "end"
)

// Status values of a Result.
const (
	StatusOK       = "ok"
	StatusTimeOut  = "time-out"   // IMB's time-out row: the benchmark's time budget was spent
	StatusOutOfMem = "out-of-mem" // IMB's out-of-mem row: buffers would exceed -mem
	// StatusIntOverflow is IMB's int-overflow row: a buffer of the size
	// is past INT_MAX bytes and the size cannot run through MPI-4's
	// large-count calls (Reason says why).
	StatusIntOverflow = "int-overflow"
	// StatusMPIError is the row of a benchmark that an MPI error ended on
	// every rank, in a job of several that went on with the next (Reason
	// is the MPI error; the size is the one in flight, 0 when the error
	// came before the first).
	StatusMPIError = "mpi-error"
)

// End statuses.
const (
	EndComplete    = "complete"
	EndInterrupted = "interrupted" // SIGINT/SIGTERM
	EndFailed      = "failed"      // an error stopped the run
	EndDeadline    = "deadline"    // the watchdog ended the run: an MPI call did not return in time
	EndCheckFailed = "check-failed"
)

// Locality of the ranks a result was measured on.
const (
	IntraNode = "intra-node" // all timing ranks on one host
	InterNode = "inter-node" // every timing rank on a different host
	Mixed     = "mixed"      // some share a host, some do not
)

// Run is the first record of a stream: what ran, where, with what.
type Run struct {
	Type    string    `json:"type"`
	Schema  string    `json:"schema"`
	RunID   string    `json:"run_id"`
	Tool    Tool      `json:"tool"`
	Suite   string    `json:"suite"`   // "imb"
	Command []string  `json:"command"` // argv as given
	Start   time.Time `json:"start"`   // RFC 3339 with zone
	MPI     MPI       `json:"mpi"`
	// WorldSize is the number of ranks started.
	WorldSize int `json:"world_size"`
	// Ranks holds one entry per world rank, in rank order.
	Ranks []Rank `json:"ranks"`
	// Hosts lists the distinct hosts in order of their lowest rank.
	Hosts []string `json:"hosts"`
	// Env holds the launcher and fabric environment of rank 0: variables
	// starting with OMPI_, MPICH_, HYDRA_, I_MPI_, FI_, UCX_, SLURM_, PMIX_,
	// PMI_.
	Env map[string]string `json:"env"`
	// Launcher is what started the ranks: "srun", "mpirun" (Open MPI's) or
	// "mpiexec" (MPICH's Hydra); absent when rank 0's environment does not
	// say (a singleton, another launcher).
	Launcher string `json:"launcher,omitempty"`
	// Job is the batch job the run ran in (Slurm), with its nodes and the
	// task layout over them.
	Job *Job `json:"job,omitempty"`
	// Options are the parsed options of the suite (for imb: imb.Options of bench/imb).
	// A Decoder gives them as *json.RawMessage, as written.
	Options any `json:"options"`
	// Labels are the user's names for the run (system, config, k=v).
	Labels map[string]string `json:"labels,omitempty"`
	// Source says where an imported run came from (absent for runs gomb
	// measured).
	Source *Source `json:"source,omitempty"`
}

// RankHosts lists the host of every rank, in rank order.
func (r *Run) RankHosts() []string {
	h := make([]string, 0, len(r.Ranks))
	for _, rk := range r.Ranks {
		h = append(h, rk.Host)
	}
	return h
}

// Source describes the log a run was imported from.
type Source struct {
	Format string `json:"format"` // "imb", "osu", "ring", "gomb"
	File   string `json:"file"`
	Line   int    `json:"line"`   // where the run starts in the file
	Hash   string `json:"sha256"` // of the whole file
	Index  int    `json:"index"`  // the run's position among the file's runs
	// Digest is the sha256 of the run as read (its results and what the
	// log said of it, before the user's labels and options): with Index,
	// the run's identity, the same when the file is renamed, copied or
	// grows by more runs after it.
	Digest string `json:"digest,omitempty"`
	// Meta keeps what the log said that has no field of its own (IMB's
	// header lines, OSU's settings lines, the launcher command, ...).
	Meta map[string]string `json:"meta,omitempty"`
}

// Tool identifies the gomb binary.
type Tool struct {
	Name      string `json:"name"`    // "gomb"
	Version   string `json:"version"` // gomb version
	GoVersion string `json:"go_version"`
}

// MPI describes the library the run used.
type MPI struct {
	// Impl is the family of the library the binary runs with: "openmpi"
	// (Open MPI and what is built on it), "mpich" (MPICH and its
	// derivatives: Intel MPI, MVAPICH, Cray MPICH), or "other".
	Impl    string `json:"impl"`
	Library string `json:"library"` // MPI_Get_library_version, verbatim
	// Name and Version are the library as MPI_Get_library_version names
	// it ("Intel MPI", "2021.10"); absent when gomb knows no such name.
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// Header is the mpi.h the binary was compiled against, as its macros
	// name it ("MPICH 4.0.2"); Features what that build can call beyond
	// MPI-3.1 ("large-count", "sessions", "persistent-collectives", ...).
	// Both absent in older records and imported runs.
	Header   string   `json:"header,omitempty"`
	Features []string `json:"features,omitempty"`
	Standard string   `json:"standard"` // MPI_Get_version, e.g. "3.1"
	Thread   string   `json:"thread"`   // thread level provided, e.g. "MPI_THREAD_SINGLE" (MPI_Query_thread after MPI_Init)
	// Init is the call that initialised MPI: "MPI_Init" or "MPI_Init_thread"
	// (absent in older records and in imported runs).
	Init string `json:"init,omitempty"`
	// Vars are the transport-selection control variables (TransportVars)
	// that hold a value, as MPI_T read them on rank 0 after MPI_Init:
	// what the environment, a parameter file or the launcher asked for.
	Vars map[string]string `json:"vars,omitempty"`
}

// Rank is one process of the run.
type Rank struct {
	Rank          int    `json:"rank"`
	Host          string `json:"host"`
	PID           int    `json:"pid"`
	CPUs          string `json:"cpus"` // CPU affinity as a list, e.g. "0-3,8"
	CPUModel      string `json:"cpu_model"`
	Kernel        string `json:"kernel"`         // uname -r
	KernelVersion string `json:"kernel_version"` // uname -v
	Machine       string `json:"machine"`        // uname -m
	// Links are the host's network links with a known rate: Ethernet-style
	// interfaces from /sys/class/net/*/speed and InfiniBand ports from
	// /sys/class/infiniband/*/ports/*/rate.
	Links []Link `json:"links,omitempty"`
}

// Link is one network link of a host.
type Link struct {
	Name  string  `json:"name"`  // "eth0", "mlx5_0/1"
	Kind  string  `json:"kind"`  // "net" or "infiniband"
	State string  `json:"state"` // "up", "down", ... (operstate or the port's state)
	Gbps  float64 `json:"gbps"`  // signalling rate, 10^9 bit/s
}

// Result is one measured (or failed) row: one benchmark, #processes,
// message size and, with -multi 1, group.
type Result struct {
	Type      string `json:"type"`
	Schema    string `json:"schema"`
	RunID     string `json:"run_id"`
	Suite     string `json:"suite"`
	Benchmark string `json:"benchmark"`
	// NP is the #processes of the benchmark (per group with -multi); 0 when
	// an imported log does not say.
	NP int `json:"np"`
	// Groups is the number of groups running at once (-multi); 1 otherwise.
	Groups int `json:"groups"`
	// Group is the group index of this row with -multi 1, else -1.
	Group int `json:"group"`
	// Mode is IMB's run mode of the row where a benchmark runs in two
	// (IMB-EXT, IMB-RMA, IMB-IO: "aggregate" or "non-aggregate", the
	// tables' "MODE:" line); "" elsewhere. A benchmark's rows of different
	// modes are different curves.
	Mode string `json:"mode,omitempty"`
	// Bytes is the message size in bytes (0 for Barrier).
	Bytes int64 `json:"bytes"`
	// Repetitions is the number of timed iterations.
	Repetitions int    `json:"repetitions"`
	Status      string `json:"status"`
	// NeededGB is the buffer memory per process the size needed (GiB),
	// for out-of-mem rows.
	NeededGB float64 `json:"needed_gb,omitempty"`
	// Reason says, for an int-overflow row, which limit the size passed
	// and what would lift it (IMB prints no reason); for an mpi-error
	// row, the MPI error.
	Reason string `json:"reason,omitempty"`
	// Repeat is 0 for a benchmark's first measurement in a job, k for its
	// k-th re-run (gomb imb -confirm re-runs a benchmark that tripped the
	// baseline); analyses take the median of a key's rows within a run.
	Repeat int `json:"repeat,omitempty"`
	// LargeCount: the size ran through MPI-4's large-count calls
	// (MPI_Send_c, MPI_Bcast_c, ...), its counts or buffers being past
	// MPI's int.
	LargeCount bool `json:"large_count,omitempty"`
	// TMinUS, TMaxUS, TAvgUS: minimum, maximum and mean over the timing
	// ranks of each rank's mean time per repetition, in microseconds,
	// scaled as IMB scales (half a round trip for PingPong).
	TMinUS float64 `json:"t_min_us"`
	TMaxUS float64 `json:"t_max_us"`
	TAvgUS float64 `json:"t_avg_us"`
	// MBps is the bandwidth as IMB prints it, MB = 10^6 bytes, from t_max.
	MBps float64 `json:"mbytes_per_sec"`
	// MsgPerSec is the message rate (Uniband, Biband).
	MsgPerSec float64 `json:"msg_per_sec,omitempty"`
	// Locality says whether the timing ranks share a node.
	Locality string `json:"locality"`
	// HostCount is the number of distinct hosts among the timing ranks.
	HostCount int `json:"host_count"`
	// Ranks are the world ranks that timed, in communicator order;
	// RankMeanUS and SamplesUS are parallel to it.
	Ranks      []int       `json:"ranks"`
	RankMeanUS []float64   `json:"rank_mean_us"`
	SamplesUS  [][]float64 `json:"samples_us"`
	// SamplesKept, when set, says that only that many timing ranks kept
	// their samples (-samples auto above bench.AutoSampleRanks ranks: rank
	// 0, the slowest, the fastest, some at random); the others' are empty
	// and their summaries below stand for them.
	SamplesKept int `json:"samples_kept,omitempty"`
	// RankMinUS, RankMaxUS, RankP50US and RankP99US summarise every timing
	// rank's samples (parallel to Ranks) where SamplesKept is set.
	RankMinUS []float64 `json:"rank_min_us,omitempty"`
	RankMaxUS []float64 `json:"rank_max_us,omitempty"`
	RankP50US []float64 `json:"rank_p50_us,omitempty"`
	RankP99US []float64 `json:"rank_p99_us,omitempty"`
	// SampleReps is how many consecutive repetitions each sample spans (a
	// sample is their mean); 0 or 1: one sample per repetition. gomb keeps
	// every repetition now; older records of one-sided tests may have it.
	SampleReps int `json:"sample_reps,omitempty"`
	// Precision is how well the samples pin down the median repetition
	// time: the half-width of the 95% confidence interval of a timing
	// rank's median, relative to it (0.01: ±1%), the widest over the timing
	// ranks; absent without enough samples (8 per rank). It is what
	// -iter_policy precision stops on.
	Precision *float64 `json:"precision,omitempty"`
	// P50US, P90US, P99US are percentiles of the samples of all timing
	// ranks, scaled like t_*_us (osu).
	P50US float64 `json:"p50_us,omitempty"`
	P90US float64 `json:"p90_us,omitempty"`
	P99US float64 `json:"p99_us,omitempty"`
	// Tail is OSU 7.3's and 7.4's tail columns (osu -z [LIST]): each
	// percentile of the per-iteration values as OSU computes it, in the
	// column's unit (µs, or MB/s for bandwidth tests).
	Tail []Tail `json:"tail,omitempty"`
	// NBC holds the non-blocking collective times (osu i* tests).
	NBC *NBC `json:"nbc,omitempty"`
	// OneWay holds the per-direction latency (osu oneway).
	OneWay *OneWay `json:"one_way,omitempty"`
	// Topology is the graph a neighbourhood collective ran on (osu
	// neighbor_*, ineighbor_*).
	Topology *Topology `json:"topology,omitempty"`
	// Pair is the pair of a fleet sweep's row (gomb fleet): both ranks,
	// their hosts and where in the sweep it ran.
	Pair *Pair `json:"pair,omitempty"`
	// Congestion is the trial and phase of a congestion canary's row
	// (gomb congestion), and what the congestors did meanwhile.
	Congestion *Congestion `json:"congestion,omitempty"`
	// TransmitBytes is what a message carried with osu -D (OSU's
	// "Transmit Size": the bytes of the derived type's elements, which the
	// bandwidths count); 0 without.
	TransmitBytes int64 `json:"transmit_bytes,omitempty"`
	// Buffers is the buffer placement of ranks 0 and 1 with -d cuda ("D D",
	// "H D", ...); Staged: device data went through host memory because
	// the MPI library is not CUDA-aware.
	Buffers string `json:"buffers,omitempty"`
	Staged  bool   `json:"staged,omitempty"`
	// Sample numbers the samples of a ring run (0: the cold first
	// sample, kept out of the statistics: Cold).
	Sample int  `json:"sample,omitempty"`
	Cold   bool `json:"cold,omitempty"`
	// Check is the -check outcome (absent without -check).
	Check *Check `json:"check,omitempty"`
	// NIC is what each host's interfaces carried while the size's timed
	// loop ran (imb -nic): the hosts of the timing ranks, the interfaces
	// whose counters grew.
	NIC []NICTraffic `json:"nic,omitempty"`
	// Time is when the size finished.
	Time time.Time `json:"time"`
}

// The run modes of Result.Mode.
const (
	ModeAggregate    = "aggregate"
	ModeNonAggregate = "non-aggregate"
)

// Name is the row's benchmark as analysis and reports name its curve:
// the benchmark, with its mode in parentheses where it has one
// ("Unidir_Put (aggregate)").
func (r *Result) Name() string { return NameWithMode(r.Benchmark, r.Mode) }

// NameWithMode joins a benchmark and a mode as Name does.
func NameWithMode(benchmark, mode string) string {
	if mode == "" {
		return benchmark
	}
	return benchmark + " (" + mode + ")"
}

// BaseName is the benchmark of a Name (the mode cut off).
func BaseName(name string) string {
	b, _, _ := strings.Cut(name, " (")
	return b
}

// Tail is one tail column: percentile P (0 to 100) and its value.
type Tail struct {
	P     int     `json:"p"`
	Value float64 `json:"value"`
}

// TailAt is the value of percentile p in r.Tail, or of P50US, P90US or
// P99US (records from before the tail columns); ok false when none holds it.
func (r *Result) TailAt(p int) (float64, bool) {
	for _, t := range r.Tail {
		if t.P == p {
			return t.Value, true
		}
	}
	switch {
	case p == 50 && r.P50US > 0:
		return r.P50US, true
	case p == 90 && r.P90US > 0:
		return r.P90US, true
	case p == 99 && r.P99US > 0:
		return r.P99US, true
	}
	return 0, false
}

// Pair is one measurement of a fleet sweep: rank Ranks[0] on host
// Hosts[0] (it times, and sends the bandwidth windows) with Ranks[1] on
// Hosts[1]. The sweep's nodes are the hosts; host#local where several
// ranks of a host took part; host:rank where the sweep made every rank a
// node (gomb fleet -by-rank: both on one host).
type Pair struct {
	Ranks [2]int    `json:"ranks"`
	Hosts [2]string `json:"hosts"`
	// Local are the ranks' places among their hosts' ranks (which NIC
	// each uses, where a rank is bound to one).
	Local [2]int `json:"local_ranks"`
	// Round is the round of the sweep it ran in (pairs in one round run
	// at once), Sweep the repetition of the whole sweep (from 0).
	Round int `json:"round"`
	Sweep int `json:"sweep"`
	// Concurrent is how many pairs ran in its round, itself included.
	Concurrent int `json:"concurrent"`
}

// Congestion is one canary measurement of gomb congestion: its trial
// (from 0) and phase ("isolated": the canaries alone; "congested": the
// congestors running on the other nodes), the canary nodes, and in a
// congested phase what each congestor did while the canaries measured.
type Congestion struct {
	Trial      int             `json:"trial"`
	Phase      string          `json:"phase"`
	Canaries   []string        `json:"canaries"`
	Congestors []CongestorLoad `json:"congestors,omitempty"`
	// Measurements is how many the phase made of the test (one a ring in
	// turn), each of the row's per-rank iterations.
	Measurements int `json:"measurements"`
}

// CongestorLoad is what one congestor did during a congested phase: its
// pattern, nodes, message size, and the bytes its ranks sent (put, or had
// got) over its seconds, all ranks together.
type CongestorLoad struct {
	Pattern string   `json:"pattern"`
	Hosts   []string `json:"hosts"`
	Bytes   int64    `json:"bytes"`
	Calls   float64  `json:"calls"`
	MBps    float64  `json:"mbps"`
	Seconds float64  `json:"seconds"`
}

// Topology is the graph of a neighbourhood collective (OSU's -N).
type Topology struct {
	// Kind is "cart" (a periodic grid) or "graph" (an adjacency list).
	Kind string `json:"kind"`
	// Dims is the grid's size along each dimension and Radius the steps
	// along each within which ranks are neighbours (cart).
	Dims   []int `json:"dims,omitempty"`
	Radius int   `json:"radius,omitempty"`
	// File is the adjacency list's path as given (graph).
	File string `json:"file,omitempty"`
	// Edges is the number of directed edges (0 where a log does not say).
	Edges int `json:"edges,omitempty"`
	// CreateUS is what MPI_Dist_graph_create_adjacent took, the mean over
	// the ranks, in microseconds (OSU's "Time took to create topology
	// graph").
	CreateUS float64 `json:"create_us"`
}

// NBC is the breakdown of a non-blocking collective, microseconds per
// iteration, Overlap in percent: OSU's (osu i* tests) averaged over the
// ranks; IMB-NBC's (suite imb-nbc) those of the rank with the longest
// overall time (t_ovrl), as IMB prints them, with Overall, Compute (t_CPU),
// Pure and IMB's overlap, 100 * max(0, min(1, (pure + compute - overall)
// / max(pure, compute))), and the other fields zero.
type NBC struct {
	OverallUS  float64 `json:"overall_us"`  // start to completion with compute in between
	ComputeUS  float64 `json:"compute_us"`  // the compute, MPI_Test calls excluded
	InitUS     float64 `json:"init_us"`     // the MPI_I* call
	TestUS     float64 `json:"test_us"`     // the MPI_Test calls
	WaitUS     float64 `json:"wait_us"`     // MPI_Wait
	PureUS     float64 `json:"pure_us"`     // start and wait without compute
	MinCommUS  float64 `json:"min_comm_us"` // smallest rank's pure time
	MaxCommUS  float64 `json:"max_comm_us"` // largest rank's pure time
	OverlapPct float64 `json:"overlap_pct"` // OSU: max(0, 100 - (overall-compute)/pure*100); IMB: above
}

// OneWay is the latency of each direction between ranks 0 and 1, from
// send and receive stamps on clocks synchronised by ping-pong exchanges.
type OneWay struct {
	HalfRTTUS  float64 `json:"half_rtt_us"`   // mean round trip / 2
	ForwardUS  float64 `json:"forward_us"`    // rank 0 -> rank 1, mean
	BackwardUS float64 `json:"backward_us"`   // rank 1 -> rank 0, mean
	ErrorUS    float64 `json:"sync_error_us"` // bound on the clock offset error: each direction is good to +-this
	OffsetUS   float64 `json:"offset_us"`     // rank 1's clock minus rank 0's, at the start
	DriftPPM   float64 `json:"drift_ppm"`     // relative drift of rank 1's clock, parts per million
}

// Check is the outcome of -check validation of one row.
type Check struct {
	Passed bool `json:"passed"`
	// Defects counts wrong elements over all ranks and check iterations.
	Defects int64 `json:"defects"`
	// Detail describes the first failure ("" if passed).
	Detail string `json:"detail,omitempty"`
}

// End is the last record of a stream.
type End struct {
	Type    string `json:"type"`
	Schema  string `json:"schema"`
	RunID   string `json:"run_id"`
	Status  string `json:"status"`
	Signal  string `json:"signal,omitempty"`  // for interrupted runs, e.g. "interrupt"
	Message string `json:"message,omitempty"` // the error, for failed runs
	Results int    `json:"results"`           // result records written
	// Summary is a ring run's summary (gomb ring: ring.Summary); a Decoder
	// gives it as *json.RawMessage, as written.
	Summary  any       `json:"summary,omitempty"`
	Time     time.Time `json:"time"`
	ElapsedS float64   `json:"elapsed_s"`
	// Cost is what keeping every raw sample cost rank 0 (absent in
	// imported runs and older records).
	Cost *RecordCost `json:"record_cost,omitempty"`
}

// RecordCost is what a run's records cost rank 0, between the sizes: the
// gathers of every rank's raw samples, encoding and writing the result
// records, and rank 0's memory.
type RecordCost struct {
	GatherS      float64 `json:"gather_s"`      // in the gathers of raw samples, all sizes
	EncodeS      float64 `json:"encode_s"`      // encoding and writing result records (-json)
	Bytes        int64   `json:"bytes"`         // of the result records written (-json)
	LargestBytes int64   `json:"largest_bytes"` // the largest result record
	PeakRSSMB    float64 `json:"peak_rss_mb"`   // rank 0's peak resident set (VmHWM), MiB
	Samples      int64   `json:"samples"`       // raw samples gathered
}
