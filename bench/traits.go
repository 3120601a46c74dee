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
	// Bus is the collective's bus-bandwidth factor for p processes (data
	// each rank moves over the link per byte of message); nil: none.
	Bus func(p float64) float64
	// Cost is the collective's time under the better of the usual
	// algorithms for a message of n bytes on p processes, from the
	// point-to-point α (µs per message) and β (µs per byte); nil: none.
	Cost func(alpha, beta, n, p float64) float64
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

// The collectives' cost models (t = α + size·β per message, the better
// of binomial tree, ring and recursive doubling).
var (
	// CostBarrier: a dissemination barrier, ⌈log2 p⌉ rounds.
	CostBarrier = func(a, b, n, p float64) float64 { return log2p(p) * a }
	// CostTree: broadcast, reduce and allreduce, a binomial tree or a
	// scatter followed by a ring.
	CostTree = func(a, b, n, p float64) float64 {
		lg := log2p(p)
		return math.Min(lg*(a+n*b), 2*lg*a+2*(p-1)/p*n*b)
	}
	// CostAllgather: recursive doubling or a ring.
	CostAllgather = func(a, b, n, p float64) float64 {
		return math.Min(log2p(p)*a+(p-1)*n*b, (p-1)*(a+n*b))
	}
	// CostReduceScatter: recursive halving or a ring.
	CostReduceScatter = func(a, b, n, p float64) float64 {
		return math.Min(log2p(p)*a+(p-1)/p*n*b, (p-1)*(a+n/p*b))
	}
	// CostAlltoall: pairwise exchange or Bruck's algorithm.
	CostAlltoall = func(a, b, n, p float64) float64 {
		return math.Min((p-1)*(a+n*b), log2p(p)*(a+p/2*n*b))
	}
	// CostGather: gather and scatter, a binomial tree.
	CostGather = func(a, b, n, p float64) float64 { return log2p(p)*a + (p-1)*n*b }
)
