package bench

import (
	"math"
	"strings"
	"sync"
)

// Lead is the number a benchmark's own table leads with, so that gomb's
// runs and imported logs of the same benchmark are compared alike.
type Lead int

// The leading numbers.
const (
	LeadAvgTime   Lead = iota // t_avg: the mean over the ranks
	LeadMaxTime               // t_max: the slowest rank (IMB's t[usec] of single transfers; the ring)
	LeadBandwidth             // MB/s (OSU's bandwidth and message-rate tests)
)

// Traits is what the interpretation side knows of a benchmark. Each spec
// declares its own (bench/imb, bench/osu, bench/ring); analysis and the
// importers read them through TraitsOf and name no benchmark themselves.
type Traits struct {
	Suite, Name string
	Label       string // as users know it: IMB's name, OSU's program (osu_latency)
	Lead        Lead
	// Latency: the reported time is one message's latency between two
	// ranks (ping-pong and ping-ping kinds): its steps are protocol
	// switches.
	Latency bool
	// Reference: the suite's reference ping-pong, from which the fabric
	// class and the collectives' cost models (α, β) are taken.
	Reference bool
	// Rooted: one rank has a special role, so the ranks' times differ by
	// design (no straggler or imbalance reading).
	Rooted bool
	// OwnTimes: every rank times its own transfer (the ring), so the
	// slowest of two ranks already names a straggler.
	OwnTimes bool
	// Sizeless: no message size (barriers).
	Sizeless bool
	// Directions: how many directions of a link one transfer loads (1:
	// one way, 2: both); 0: peak bandwidth is not compared with the link.
	Directions int
	// Sends: messages of the reported size each rank sends in one
	// reported time (PingPong 1 per half round trip, Exchange 2). The
	// suite's benchmarks with Sends built on the same transfers are
	// siblings: each rank's send rate, bytes × Sends over the time,
	// compares across them; 0: no siblings.
	Sends int
	// Bus is the collective's bus-bandwidth factor for p processes (data
	// each rank moves over the link per byte of message); nil: none.
	Bus func(p float64) float64
	// Cost is the collective's time under the better of the usual
	// algorithms for a message of n bytes on p processes, from the time
	// of one point-to-point message; nil: none.
	Cost func(t P2P, n, p float64) float64
	// Reduction: the collective reduces what it receives (the local
	// reduction's cost per byte adds to its model). LocalReduction: the
	// suite's local reduction (Reduce_local), which gives that cost.
	Reduction, LocalReduction bool
	// Collective: the MPI collective it times with one call per
	// iteration ("allreduce"), by which the MPI libraries' default
	// algorithm tables are looked up; "" for the rest.
	Collective string
	// OneSided: it times one-sided operations (MPI_Put, MPI_Get,
	// accumulates) through an RMA window.
	OneSided bool
	// Group: it times a collective call over the communicator's ranks,
	// blocking, non-blocking or persistent (Collective names the libraries'
	// table only where gomb knows one).
	Group bool
	// Pairs: pairs of ranks at once, each its own transfer (osu_multi_lat,
	// osu_mbw_mr), no collective call.
	Pairs bool
	// Split: the reported size is the whole vector, divided among the
	// ranks (IMB's Reduce_scatter: count/np floats each); a size below
	// one 4-byte element per rank leaves some ranks nothing, and its time
	// says nothing of the transfers.
	Split bool
}

var (
	traitsMu sync.RWMutex
	traits   = map[string]Traits{}
)

func traitsKey(suite, name string) string { return suite + "/" + strings.ToLower(name) }

// RegisterTraits is called by each suite's Register.
func RegisterTraits(t Traits) {
	traitsMu.Lock()
	defer traitsMu.Unlock()
	traits[traitsKey(t.Suite, t.Name)] = t
}

// TraitsOf returns a benchmark's traits (case-insensitive name); ok is
// false for a benchmark no spec declares.
func TraitsOf(suite, name string) (t Traits, ok bool) {
	traitsMu.RLock()
	defer traitsMu.RUnlock()
	t, ok = traits[traitsKey(suite, name)]
	return t, ok
}

// The bus-bandwidth factors of the collectives that have one (NCCL's
// convention: bytes each rank moves over its link per byte of message).
var (
	BusAllreduce     = func(p float64) float64 { return 2 * (p - 1) / p }
	BusAllgather     = func(p float64) float64 { return p - 1 }
	BusAlltoall      = func(p float64) float64 { return p - 1 }
	BusBcast         = func(p float64) float64 { return 1 }
	BusReduceScatter = func(p float64) float64 { return (p - 1) / p }
)

func log2p(p float64) float64 { return math.Ceil(math.Log2(p)) }

// P2P is the time of one point-to-point message of a number of bytes, µs:
// the run's own reference ping-pong, measured (half its round trip).
type P2P func(bytes float64) float64

// halving is Σ t(n/2^k), k = 1..⌈log2 p⌉: recursive halving.
func halving(t P2P, n, p float64) (sum float64) {
	for k := 1.0; k <= log2p(p); k++ {
		sum += t(n / math.Pow(2, k))
	}
	return sum
}

// doubling is Σ t(n·2^k), k = 0..⌈log2 p⌉-1: recursive doubling, a
// binomial gather.
func doubling(t P2P, n, p float64) (sum float64) {
	for k := 0.0; k < log2p(p); k++ {
		sum += t(n * math.Pow(2, k))
	}
	return sum
}

// The collectives' cost models: the better of the usual algorithms,
// each step one point-to-point message of the run's own measured time
// (with t = α + size·β they are the textbook formulas; measured, they
// carry the MPI's protocol switches along).
var (
	// CostPairs: pairs exchanging at once (osu_multi_lat), each one
	// message's time: what they would take without contention.
	CostPairs = func(t P2P, n, p float64) float64 { return t(n) }
	// CostBarrier: a dissemination barrier, ⌈log2 p⌉ rounds.
	CostBarrier = func(t P2P, n, p float64) float64 { return log2p(p) * t(0) }
	// CostTree: broadcast, reduce and allreduce: a binomial tree, or
	// recursive halving then doubling (Rabenseifner).
	CostTree = func(t P2P, n, p float64) float64 { return math.Min(log2p(p)*t(n), 2*halving(t, n, p)) }
	// CostAllgather: recursive doubling or a ring.
	CostAllgather = func(t P2P, n, p float64) float64 { return math.Min(doubling(t, n, p), (p-1)*t(n)) }
	// CostReduceScatter: recursive halving or a ring.
	CostReduceScatter = func(t P2P, n, p float64) float64 { return math.Min(halving(t, n, p), (p-1)*t(n/p)) }
	// CostAlltoall: pairwise exchange or Bruck's algorithm.
	CostAlltoall = func(t P2P, n, p float64) float64 { return math.Min((p-1)*t(n), log2p(p)*t(p/2*n)) }
	// CostGather: gather and scatter, a binomial tree.
	CostGather = func(t P2P, n, p float64) float64 { return doubling(t, n, p) }
)
