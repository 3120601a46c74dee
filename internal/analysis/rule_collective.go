package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// measured is a series' time per message size, interpolated linearly
// between its sizes and extrapolated along its last two (below its
// smallest size: that size's time). It is the point-to-point time the
// collectives' cost models are built of.
func measured(s *series) (func(bytes float64) float64, bool) {
	var x, y []float64
	for _, r := range s.rows {
		if t := r.primaryTime(); t > 0 && (len(x) == 0 || float64(r.bytes) > x[len(x)-1]) {
			x, y = append(x, float64(r.bytes)), append(y, t)
		}
	}
	if len(x) < 2 { // two sizes make a line (a log's -msglen of 0 B and 512 KiB)
		return nil, false
	}
	return func(b float64) float64 {
		i := sort.SearchFloat64s(x, b)
		switch {
		case i == 0:
			return y[0]
		case i == len(x):
			i = len(x) - 1
		}
		slope := (y[i] - y[i-1]) / (x[i] - x[i-1])
		return y[i-1] + slope*(b-x[i-1])
	}, true
}

// pairModel is the point-to-point time a run's collectives are modelled
// from, and where it was taken: the run's own reference ping-pong; else
// one of another run of the same log (an OSU log holds one test a run);
// else the highest latency of the class the run's transport belongs to,
// or of any fabric (Thresholds.FabricFar) when it names none: an upper
// bound, so that only a collective slower than any fabric could make it
// is flagged.
func pairModel(in *explainInput) (p2p func(float64) float64, from string, peer bool) {
	if ref := reference(in.series); ref != nil {
		if p2p, ok := measured(ref); ok {
			return p2p, fmt.Sprintf("model from this run's %s (each step one message of its time)", ref.Benchmark), false
		}
	}
	if ref, line := peerReference(in); ref != nil {
		if p2p, ok := measured(ref); ok {
			return p2p, fmt.Sprintf("model from %s of another run in the same log (line %d; each step one message of its time)", ref.traits().Label, line), true
		}
	}
	p2p, from = slowestPair(in)
	return p2p, from, false
}

// reference is the reference ping-pong among ss, nil without one.
func reference(ss []*series) *series {
	for _, s := range ss {
		if s.traits().Reference {
			return s
		}
	}
	return nil
}

// slowestPair is the pair model of a run with no usable ping-pong: the
// slowest latency of the class its transport names, else of any fabric.
func slowestPair(in *explainInput) (p2p func(float64) float64, from string) {
	lat, from := in.th.FabricFar, fmt.Sprintf("no pair latency in the log: model with %s a message, the slowest fabric's", us(in.th.FabricFar))
	if p, ok := providerClass[in.ev.provider]; ok {
		for _, c := range latencyClasses(in.th, gpuBuffers(in.run.Run)) {
			if c.class == p.class && c.class != ClassShm {
				lat, from = c.hi, fmt.Sprintf("no pair latency in the log: model with %s a message, the most %s gives (the transport the run names, from %s)", us(c.hi), p.name, in.ev.providerFrom)
			}
		}
	}
	const slowMBps = 100 // below any fabric's bandwidth (1 GbE: 117 MB/s)
	return func(b float64) float64 { return lat + b/slowMBps }, from
}

// peerReference is the reference ping-pong of another run of the same log
// nearest before the run (a log of several MPIs or set-ups runs each one's
// ping-pong first), else nearest after it, and the line that run starts
// at; nil when no other run has one.
func peerReference(in *explainInput) (*series, int) {
	line := 0
	if in.run.Run.Source != nil {
		line = in.run.Run.Source.Line
	}
	var best *series
	bestLine, bestDist := 0, 0
	for _, p := range in.peers {
		ref := reference(in.cache.seriesOf(p))
		if ref == nil {
			continue
		}
		l := p.Run.Source.Line
		d := line - l // before the run: its distance; after it: behind every run before
		if d < 0 {
			d = 1<<31 - d
		}
		if best == nil || d < bestDist {
			best, bestLine, bestDist = ref, l, d
		}
	}
	return best, bestLine
}

// MaxModelRanks is the process count a collective of unknown count is
// modelled at: more ranks than any job runs, so that its model is a bound.
const MaxModelRanks = 1 << 20

// collectiveModel: collectives against what a ping-pong predicts for the
// usual algorithms of each (bench.Traits.Cost: every step one message of
// the ping-pong's measured time, so protocol switches are in the model),
// plus, for reductions, the local reduction's measured cost per byte
// (Reduce_local, when the run has it). A WARNING where a collective
// exceeds its model by more than the envelope the healthy corpus allows
// (Thresholds.CollectiveRatio) — unless the run's reductions are all as
// slow as each other while its other collectives keep to their models:
// then the reduction's arithmetic is what costs (a slow core), an INFO.
func collectiveModel(in *explainInput) []Finding {
	th, run, ss := in.th, in.run.Run, in.series
	var local *series
	for _, s := range ss {
		if s.traits().LocalReduction && local == nil {
			local = s
		}
	}
	p2p, ref, peer := pairModel(in)
	// a ping-pong of another run of the log may be another set-up (an
	// MPI, a container, a placement of its own): twice the margin
	ratio := th.CollectiveRatio
	if peer {
		ratio *= 2
	}
	// a ping-pong between two ranks of one node (shared memory: IMB runs
	// PingPong on ranks 0 and 1) says nothing of collectives whose ranks
	// may span nodes: those are held against the slowest pair instead
	shmRef := p2p(0) < th.FabricNetMin
	farP2P, farRef := slowestPair(in)
	compute := func(float64) float64 { return 0 }
	if local != nil {
		if lr, ok := measured(local); ok {
			compute = lr
		}
	}
	type flagged struct {
		s                 *series
		hit               []int64
		worst, worstModel float64
		worstAt           int64
		from              string
	}
	var all []flagged
	for _, s := range ss {
		tr := s.traits()
		if tr.Cost == nil || s.NP == 1 {
			continue
		}
		p, pair, from := float64(s.NP), p2p, ref
		if s.NP == 0 { // the log does not say: more ranks than any job has
			p, from = MaxModelRanks, fmt.Sprintf("%s; the process count unknown, modelled at %d ranks, more than any job", ref, MaxModelRanks)
		}
		if shmRef && !in.oneNode(s) {
			pair, from = farP2P, farRef+fmt.Sprintf(" (the log's ping-pong, %s, is shared memory, and these ranks may span nodes)", us(p2p(0)))
		}
		model := func(n float64) float64 {
			m := tr.Cost(pair, n, p)
			if tr.Reduction && n > 0 {
				m += math.Ceil(math.Log2(p)) * compute(n)
			}
			return m
		}
		x := flagged{s: s, from: from}
		for _, r := range s.rows {
			m := model(float64(r.bytes))
			t := math.Max(r.tmax, r.tavg)
			if math.IsNaN(m) || !(m > 0) || !(t > 0) || (r.bytes == 0 && !tr.Sizeless) {
				continue
			}
			if t > ratio*m && t-m > th.CollectiveMinUS {
				x.hit = append(x.hit, r.bytes)
				if t/m > x.worst/math.Max(x.worstModel, 1e-300) {
					x.worst, x.worstModel, x.worstAt = t, m, r.bytes
				}
			}
		}
		if len(x.hit) >= th.CollectiveMinSizes || tr.Sizeless && len(x.hit) == 1 {
			all = append(all, x) // one size alone: noise, or a size the library handles apart
		}
	}
	flaggedOther := map[int]bool{} // a process count with a flagged collective that reduces nothing
	for _, x := range all {
		if !x.s.traits().Reduction {
			flaggedOther[x.s.NP] = true
		}
	}
	var out []Finding
	for _, x := range all {
		s, tr := x.s, x.s.traits()
		from := x.from
		if local != nil && tr.Reduction {
			from += fmt.Sprintf(" and %s (the reduction's cost)", local.Benchmark)
		}
		numbers := []string{
			fmt.Sprintf("worst at %s: %s measured (t_max), %s modelled (%.1f×)", Size(x.worstAt), us(x.worst), us(x.worstModel), x.worst/x.worstModel),
			from + "; the better of the usual algorithms (binomial tree, ring, recursive doubling and halving)"}
		if algo := algorithms(run, tr.Collective, s.NP); algo != nil {
			numbers = append(numbers, algo.uses(x.worstAt, s.NP))
		}
		at := sizes(x.hit)
		if tr.Sizeless {
			at = "every call"
		}
		f := Finding{Kind: KindCollective, Severity: Warning, Series: s.Series, Sizes: x.hit,
			Summary: fmt.Sprintf("%s is more than %g× slower than its point-to-point model at %s", name(s.Series), ratio, at),
			Numbers: numbers,
			Cause:   "the MPI picks a poor algorithm for this size and process count, or the collective meets contention the point-to-point test does not (ranks sharing a NIC, oversubscribed cores); try the library's alternatives (Open MPI --mca coll_tuned_use_dynamic_rules 1 with coll_tuned_<op>_algorithm, I_MPI_ADJUST_<OP>, MPIR_CVAR_<OP>_INTRA_ALGORITHM)"}
		if tr.Pairs { // pairs at once (osu_multi_lat), no collective call
			f.Summary = fmt.Sprintf("%s: pairs at once are more than %g× slower than one pair at %s", name(s.Series), ratio, at)
			f.Numbers[1] = from + "; each pair one message's time, as if alone"
			f.Cause = "the pairs slow each other down: they share a NIC, a link or a switch port (congestion, a poor route), or the ranks share cores (oversubscription); run the pairs one at a time (osu_latency between each) to find the one that is slow"
		}
		if alike := reductionsAlike(ss, s, x.worstAt); tr.Reduction && alike != "" && !flaggedOther[s.NP] {
			f.Severity = Info
			f.Numbers = append(f.Numbers, alike)
			f.Cause = "the reductions' arithmetic, not their transfers: every reduction of the run is as slow as the others while its other collectives keep to their models, which is what a slow core (or an unvectorised MPI_SUM) does; Reduce_local, when run, measures it"
		}
		out = append(out, f)
	}
	return out
}

// reductionsAlike says (in words, "" when not) whether the run's other
// reductions at s's process count take about s's time at size b (within
// 2×): reductions built on different transfer patterns that cost the same
// are bound by their arithmetic.
func reductionsAlike(ss []*series, s *series, b int64) string {
	at := func(s *series) float64 {
		for _, r := range s.rows {
			if r.bytes == b {
				return math.Max(r.tmax, r.tavg)
			}
		}
		return 0
	}
	t := at(s)
	var alike []string
	for _, o := range ss {
		if o == s || o.NP != s.NP || !o.traits().Reduction {
			continue
		}
		if u := at(o); u > 0 && t > 0 && u <= 2*t && t <= 2*u {
			alike = append(alike, fmt.Sprintf("%s %s", o.Benchmark, us(u)))
		}
	}
	if len(alike) == 0 {
		return ""
	}
	return fmt.Sprintf("at %s the run's other reductions take about as long (np %d): %s against %s", Size(b), s.NP, strings.Join(alike, ", "), us(t))
}
