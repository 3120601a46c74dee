package analysis

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
)

// steps: where time jumps between adjacent sizes by more than the extra
// bytes explain (at the series' best bandwidth, or at the growth of the
// step before) and stays up at the larger sizes (or bandwidth drops and
// stays down). A size far above both neighbours that the next sizes do
// not follow is a spike: noise during that size.
func steps(s *series, th Thresholds) (jumps, spikes []jump) {
	n := len(s.rows)
	val := func(r row) float64 {
		if s.metric == BW {
			return r.primary
		}
		return r.primaryTime()
	}
	bw := peakBW(s)
	// over the sizes after each: the least and the most value (a value
	// that is no number counts as least and most: no comparison holds for
	// it) and the best bandwidth (bytes over time)
	lo, hi, best := make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
	lo[n], hi[n], best[n] = math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := n - 1; i >= 0; i-- {
		c := s.rows[i]
		v := val(c)
		lo[i], hi[i], best[i] = math.Min(lo[i+1], v), math.Max(hi[i+1], v), best[i+1]
		if math.IsNaN(v) {
			lo[i], hi[i] = math.Inf(-1), math.Inf(1)
		} else if g := float64(c.bytes) / v; !math.IsNaN(g) {
			best[i] = math.Max(best[i], g)
		}
	}
	for i := 1; i < n; i++ {
		a, b := s.rows[i-1], s.rows[i]
		ta, tb := val(a), val(b)
		if a.bytes == 0 || !(ta > 0) || !(tb > 0) {
			continue
		}
		j := jump{a: a, b: b, ta: ta, tb: tb}
		var big, stays bool
		if s.metric == BW { // bandwidth falling as messages grow
			big = tb < th.CliffBWDrop*ta
			stays = hi[i+1] < th.CliffBWStay*ta
			if stays && a.bytes < th.CliffBWMinBytes {
				continue // small messages' bandwidth is their rate's: no cliff to read
			}
		} else {
			if bw == 0 {
				return nil, nil
			}
			// what the extra bytes cost at the best bandwidth seen, or
			// the growth of the step before (a series in its bandwidth
			// regime doubles its time with the bytes: no cliff), or at
			// tiny sizes the bytes' own growth where the next size grows
			// so too (a time that doubles with them is a cost per byte,
			// proportional, not a step; a spike is not)
			j.want = ta + float64(b.bytes-a.bytes)/bw
			if i >= 2 {
				if tp := val(s.rows[i-2]); tp > 0 && s.rows[i-2].bytes > 0 && ta > tp {
					j.want = math.Max(j.want, ta*ta/tp)
				}
			}
			if a.bytes < th.CliffBWMinBytes && i+1 < n && val(s.rows[i+1]) >= 0.9*tb*float64(s.rows[i+1].bytes)/float64(b.bytes) {
				j.want = math.Max(j.want, ta*float64(b.bytes)/float64(a.bytes)) // and the next size goes on so
			}
			big = tb > th.CliffTimeRatio*j.want && tb-j.want > th.CliffTimeMinUS
			stays = lo[i+1] >= th.CliffStay*tb
			j.recovers = best[i+1] >= th.CliffRegain*float64(a.bytes)/ta &&
				(a.bytes >= th.CliffBWMinBytes || tb <= th.CliffSmallRegain*ta)
		}
		switch {
		case big && stays && i < n-1: // the last size alone cannot show that it persists
			jumps = append(jumps, j)
		case big:
			spikes = append(spikes, j)
		}
	}
	return jumps, spikes
}

// cliffFindings: the steps of one series that the run's protocol switches
// do not explain are a cliff (a WARNING); its spikes are noise (INFO).
// Where the library's default algorithm changes at a step (algo, when
// gomb knows the library's table), the finding says from what to what.
// lone: the numbers of a step no sibling shares (loneStep).
func cliffFindings(s *series, jumps, spikes []jump, algo *algoTable, lone []string) []Finding {
	bw := peakBW(s)
	var out []Finding
	if len(jumps) > 0 {
		f := Finding{Kind: KindCliff, Severity: Warning, Series: s.Series}
		var where []string
		for _, j := range jumps {
			f.Sizes = append(f.Sizes, j.b.bytes)
			where = append(where, Size(j.a.bytes)+" → "+Size(j.b.bytes))
		}
		f.Numbers = describeJumps(jumps, s.metric, bw)
		if len(f.Numbers) > 3 { // the three largest jumps are enough to read
			sort.SliceStable(jumps, func(i, k int) bool { return jumps[i].tb/jumps[i].ta > jumps[k].tb/jumps[k].ta })
			f.Numbers = append(f.Numbers[:0], describeJumps(jumps[:3], s.metric, bw)...)
			f.Numbers = append(f.Numbers, fmt.Sprintf("and %d more", len(jumps)-3))
		}
		verb := "time jumps"
		if s.metric == BW {
			verb = "bandwidth drops"
		}
		f.Summary = fmt.Sprintf("%s: %s at %s and does not recover", name(s.Series), verb, strings.Join(where, ", "))
		f.Cause = "a protocol or algorithm switch (eager to rendezvous adds a handshake; a collective changing algorithm; a registration or pipelining limit) or a misconfiguration that sends these sizes down a slower path (MTU, a fallback transport); if it sits at the MPI's switch point, move the threshold (Open MPI btl_*_eager_limit, UCX_RNDV_THRESH, I_MPI_EAGER_THRESHOLD, MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE)"
		changes := 0
		for _, j := range jumps {
			if c := algo.change(j.a.bytes, j.b.bytes, s.NP); c != "" {
				f.Numbers = append(f.Numbers, c)
				changes++
			}
		}
		if changes > 0 {
			f.Cause = "the library's default algorithm changes at this step: rerun these sizes with the previous algorithm forced (above); if the step goes, make that algorithm the default for this system, if it stays, the transport steps here, not the algorithm. In general: " + f.Cause
		}
		if f.Sizes[len(f.Sizes)-1] >= 256<<10 {
			f.Cause += "; from a few hundred KiB on, buffers outgrowing the CPU caches slow shared-memory copies the same way"
		}
		if len(lone) > 0 {
			f.Summary += ", a step the benchmarks built on the same transfers do not share"
			f.Numbers = append(f.Numbers, lone...)
			f.Cause = siblingCause
		}
		out = append(out, f)
	}
	last := s.rows[len(s.rows)-1].bytes
	var mid, end []jump // spikes between sizes, and a step at the largest size
	for _, j := range spikes {
		if j.b.bytes == last {
			end = append(end, j)
		} else {
			mid = append(mid, j)
		}
	}
	value, after := us, "and the larger sizes fall back"
	if s.metric == BW {
		value, after = mbps, "and the larger sizes recover"
	}
	if len(mid) > 0 {
		f := Finding{Kind: KindVariability, Severity: Info, Series: s.Series}
		for _, j := range mid {
			f.Sizes = append(f.Sizes, j.b.bytes)
			f.Numbers = append(f.Numbers, fmt.Sprintf("%s: %s after %s at %s, %s", Size(j.b.bytes), value(j.tb), value(j.ta), Size(j.a.bytes), after))
		}
		f.Summary = fmt.Sprintf("%s: outlying sizes %s that the neighbouring sizes do not share", name(s.Series), sizes(f.Sizes))
		f.Cause = "noise while these sizes ran (other load, interrupts, frequency changes); rerun, or compare several launches with gomb compare"
		out = append(out, f)
	}
	for _, j := range end {
		out = append(out, Finding{Kind: KindVariability, Severity: Info, Series: s.Series, Sizes: []int64{j.b.bytes},
			Summary: fmt.Sprintf("%s: a step at the largest size, %s, that no larger size confirms", name(s.Series), Size(j.b.bytes)),
			Numbers: []string{fmt.Sprintf("%s: %s after %s at %s", Size(j.b.bytes), value(j.tb), value(j.ta), Size(j.a.bytes))},
			Cause:   "unconfirmed: a size alone cannot show whether it persists; rerun with a larger size (-msglog, -m) to see whether the step lasts (a cliff) or falls back (noise)"})
	}
	return out
}

// switchDips sets apart, among a bandwidth series' dips that recover,
// the one at the eager/rendezvous switch: from CliffBWMinBytes on, the
// size after the dip still below it (CliffBWStay of the bandwidth
// before), so that the recovery takes several sizes, in a series that
// shows no switch elsewhere from CliffBWMinBytes on (MVAPICH2's osu_bibw
// over EDR switches at 16 KiB, a stall and a leap, and dips again at 128
// KiB: an outlying size).
// A dip one size deep is an outlying size.
func switchDips(in *explainInput, s *series, spikes []jump) (dips, rest []jump) {
	if s.metric != BW {
		return nil, spikes
	}
	for _, f := range bandwidthSwitch(in, s, nil) {
		if f.Sizes[0] >= in.th.CliffBWMinBytes { // its rendezvous is there
			return nil, spikes
		}
	}
	for _, j := range spikes {
		if len(dips) == 0 && j.a.bytes >= in.th.CliffBWMinBytes && sizesToRecover(s, j, in.th) >= 2 {
			dips = append(dips, j)
		} else {
			rest = append(rest, j)
		}
	}
	return dips, rest
}

// sizesToRecover counts the sizes from j's larger one on whose bandwidth
// stays below CliffBWStay of the size before the dip (0 where it never
// recovers).
func sizesToRecover(s *series, j jump, th Thresholds) int {
	n := 0
	for _, r := range s.rows {
		if r.bytes < j.b.bytes {
			continue
		}
		if r.primary >= th.CliffBWStay*j.ta {
			return n
		}
		n++
	}
	return 0
}

// dipFindings says each dip at the protocol switch (switchDips).
func dipFindings(s *series, dips []jump, th Thresholds) []Finding {
	var out []Finding
	for _, j := range dips {
		n := sizesToRecover(s, j, th)
		out = append(out, Finding{Kind: KindSwitch, Severity: Info, Series: s.Series, Sizes: []int64{j.a.bytes, j.b.bytes},
			Summary: fmt.Sprintf("%s: a protocol switch between %s and %s: the bandwidth dips there and takes %d sizes to recover", name(s.Series), Size(j.a.bytes), Size(j.b.bytes), n),
			Numbers: []string{fmt.Sprintf("%s at %s, %s at %s (%.0f%% lower); back above %s after %d sizes",
				mbps(j.ta), Size(j.a.bytes), mbps(j.tb), Size(j.b.bytes), 100*(1-j.tb/j.ta), mbps(th.CliffBWStay*j.ta), n)},
			Cause: "the eager/rendezvous switch: the first sizes sent by rendezvous pay a handshake their bytes do not yet make up for, and the bandwidth climbs back as messages grow; moving the threshold (MV2_IBA_EAGER_THRESHOLD, UCX_RNDV_THRESH, I_MPI_EAGER_THRESHOLD, btl_*_eager_limit) moves the dip"})
	}
	return out
}

// jump is a step between adjacent sizes: values ta and tb, and want, the
// time the extra bytes explain.
type jump struct {
	a, b   row
	ta, tb float64
	want   float64
	// recovers: a larger size moves CliffRegain times the bandwidth the
	// series had before the step: a switch to a faster protocol, which
	// pays for its step
	recovers bool
}

func describeJumps(js []jump, m Metric, bw float64) []string {
	var out []string
	for _, j := range js {
		if m == BW {
			out = append(out, fmt.Sprintf("%s at %s, %s at %s (%.0f%% lower, and lower still at the larger sizes)",
				mbps(j.ta), Size(j.a.bytes), mbps(j.tb), Size(j.b.bytes), 100*(1-j.tb/j.ta)))
		} else {
			out = append(out, fmt.Sprintf("%s → %s: %s → %s (×%.2f for ×%.0f the bytes; at the best bandwidth seen, %s, %s)",
				Size(j.a.bytes), Size(j.b.bytes), us(j.ta), us(j.tb), j.tb/j.ta, float64(j.b.bytes)/float64(j.a.bytes), mbps(bw), us(j.want)))
		}
	}
	return out
}

// cliffs: the steps of every series, those the run shares set apart. A
// step at a protocol switch of the run's latency benchmarks (within one
// size of it), or at the same sizes in Thresholds.CliffShared series or
// more, is the MPI changing protocol or algorithm for every benchmark:
// expected, said once for the run (INFO), not once per benchmark. What
// is left is a cliff of that series (a WARNING).
func cliffs(in *explainInput) []Finding {
	c := newCliffRun(in)
	c.switchPoints()
	var out []Finding
	for _, x := range c.all {
		out = append(out, c.series(x)...)
	}
	out = append(out, c.cacheFinding()...)
	for _, sw := range c.switchFindings() {
		if !besideCliffs(out, sw.b, sw.who) {
			out = append(out, sw.f)
		}
	}
	return out
}

// besideCliffs tells whether a switch finding (the step at b "expected")
// would stand beside cliff WARNINGs of the same step (within one size):
// then it says nothing of the kind, and each of those WARNINGs names the
// benchmarks that share the step instead (IMB-EXT's one-sided puts ×13-45
// at 4 KiB while Accumulate steps ×5.7 there).
func besideCliffs(out []Finding, b int64, who []string) bool {
	beside := false
	for i := range out {
		f := &out[i]
		if f.Kind != KindCliff || f.Severity != Warning || !slices.ContainsFunc(f.Sizes, func(x int64) bool { return x == b || x == b/2 || x == 2*b }) {
			continue
		}
		beside = true
		var others []string
		for _, w := range who {
			if w != f.Series.Benchmark {
				others = append(others, w)
			}
		}
		if len(others) > 0 {
			f.Numbers = append(f.Numbers, fmt.Sprintf("a step at %s in %s too; this one is no expected switch of the MPI's (a rendezvous adds a round trip or two)", Size(b), strings.Join(others, ", ")))
		}
	}
	return beside
}

// cliffRun is what cliffs reads and gathers over a run's series.
type cliffRun struct {
	in      *explainInput
	all     []stepped
	at      map[int64][]string  // larger size of a step → the series that step there
	stepsOf map[*series][]int64 // series → where it steps (spikes too)
	// switchAt: the switch points and what makes each one; regains: those
	// known only by a collective's step the next sizes undo; said:
	// "Benchmark size" of which the series' own switch finding says it
	switchAt map[int64]string
	regains  map[int64]bool
	said     map[string]bool
	// shown: switch size → the series whose step it explains; other: among
	// them one whose own switch finding does not say it
	shown map[int64][]string
	other map[int64]bool
	// cache: benchmark → sizes of its cache steps, in cacheOrder
	cache      map[string][]int64
	cacheOrder []string
	// bigs: a collective's steps no protocol switch makes (bigSteps)
	bigs map[*series][]bigStep
	// eager: the library's eager limits on the run's transport
	eager []eagerLimit
}

// stepped is a series with its steps and spikes.
type stepped struct {
	s             *series
	jumps, spikes []jump
}

// newCliffRun finds the steps of every series of the run.
func newCliffRun(in *explainInput) *cliffRun {
	c := &cliffRun{in: in, at: map[int64][]string{}, stepsOf: map[*series][]int64{}, switchAt: map[int64]string{},
		regains: map[int64]bool{}, said: map[string]bool{}, shown: map[int64][]string{}, other: map[int64]bool{},
		cache: map[string][]int64{}, bigs: map[*series][]bigStep{}}
	for _, s := range in.series {
		j, sp := steps(s, in.th)
		c.bigs[s] = bigSteps(in, s)
		for _, x := range j {
			if !c.big(s, x.b.bytes) { // a big step witnesses no switch
				c.at[x.b.bytes] = append(c.at[x.b.bytes], name(s.Series))
			}
			c.stepsOf[s] = append(c.stepsOf[s], x.b.bytes)
		}
		for _, x := range sp {
			c.stepsOf[s] = append(c.stepsOf[s], x.b.bytes)
		}
		if _, ok := falls(in, s); ok {
			j, sp = nil, nil // a slide to the largest size: bandwidthFall says it (its steps still witness others')
		}
		c.all = append(c.all, stepped{s, j, sp})
	}
	return c
}

// switchPoints finds the run's switch points: the latency benchmarks'
// protocol switches, steps many series share (the log's other runs
// among them), and steps a series makes up for by the larger sizes.
func (c *cliffRun) switchPoints() {
	in, th := c.in, c.in.th
	c.eager = eagerLimits(in)
	for _, e := range c.eager {
		c.switchAt[e.bytes] = e.words
	}
	for _, s := range in.series {
		if !s.traits().Latency {
			continue
		}
		for _, p := range switchPoints(s, th) {
			if p.protocol {
				a, b := p.fit.bs[p.k-1], p.fit.bs[p.k]
				c.switchAt[b] = fmt.Sprintf("%s's protocol switch between %s and %s", s.Benchmark, Size(a), Size(b))
				c.said[fmt.Sprint(s.Benchmark, b)] = true
			}
		}
	}
	// the log's other runs (an OSU log: one test a run) are witnesses:
	// a step they share at the same size is the MPI's too. Repetitions
	// of a benchmark at one process count are one witness, not many: a
	// cliff repeats as faithfully as a switch (Lassen's 20 launches of
	// osu_mbw_mr)
	for _, p := range in.peers {
		for _, s := range in.cache.seriesOf(p) {
			for _, x := range in.cache.jumpsOf(s, th) {
				if !s.traits().Group || x.tb < th.BigStep*x.ta {
					c.at[x.b.bytes] = append(c.at[x.b.bytes], name(s.Series))
				}
			}
		}
	}
	for b, who := range c.at {
		if n := len(dedupe(who)); n >= th.CliffShared {
			if _, ok := c.switchAt[b]; !ok {
				c.switchAt[b] = fmt.Sprintf("a step %d benchmarks share", n)
			}
		}
	}
	for _, x := range c.all {
		for _, j := range x.jumps {
			if _, ok := c.switchAt[j.b.bytes]; !ok && j.recovers {
				// a collective's step that the next two sizes undo is noise
				// (an allreduce at 3072 ranks: 263, 479, 408 µs at 1, 2, 4
				// KiB); a point-to-point step regained is a protocol's
				c.regains[j.b.bytes] = !x.s.traits().Latency && (fallsBack(x.s, j) || !repeated(in, x.s, j.b.bytes))
				c.switchAt[j.b.bytes] = fmt.Sprintf("%s regains its bandwidth of %s (%s) by the larger sizes", x.s.Benchmark, Size(j.a.bytes), mbps(float64(j.a.bytes)/j.ta))
			}
		}
	}
}

// big tells whether s's step to size b is a big step (bigSteps).
func (c *cliffRun) big(s *series, b int64) bool {
	for _, x := range c.bigs[s] {
		if x.j.b.bytes == b {
			return true
		}
	}
	return false
}

// atEager is the library's eager limit within one size of b (a message
// of the limit's size itself may go either way, its header counted).
func (c *cliffRun) atEager(b int64) (int64, bool) {
	for _, e := range c.eager {
		if b == e.bytes || b == 2*e.bytes || b == e.bytes/2 {
			return e.bytes, true
		}
	}
	return 0, false
}

// explained is the switch point within one size of b.
func (c *cliffRun) explained(b int64) (int64, bool) {
	for _, x := range []int64{b, b / 2, b * 2} {
		if _, ok := c.switchAt[x]; ok {
			return x, true
		}
	}
	return 0, false
}

// cached notes a step of s at b that the caches make (ranks sharing a
// node, from CliffCacheBytes on).
func (c *cliffRun) cached(s *series, b int64) {
	if c.cache[s.Benchmark] == nil {
		c.cacheOrder = append(c.cacheOrder, s.Benchmark)
	}
	c.cache[s.Benchmark] = append(c.cache[s.Benchmark], b)
}

// series sorts a series' steps into the caches', the run's switches and
// its own, and says its own and its spikes.
func (c *cliffRun) series(x stepped) []Finding {
	in, th := c.in, c.in.th
	var own []jump
	var lone []string
	sibs := siblings(in, x.s)
	for _, j := range x.jumps {
		if c.big(x.s, j.b.bytes) {
			continue // said by bigStepFinding
		}
		if in.shared(x.s) && j.b.bytes >= th.CliffCacheBytes {
			c.cached(x.s, j.b.bytes)
			continue
		}
		if sw, ok := c.atEager(j.b.bytes); ok && !slowPath(x.s, j, th) {
			c.shown[sw] = append(c.shown[sw], x.s.Benchmark)
			c.other[sw] = c.other[sw] || !c.said[fmt.Sprint(x.s.Benchmark, sw)]
		} else if l := loneStep(x.s, j.b.bytes, sibs, c.stepsOf, th); len(l) > 0 {
			own, lone = append(own, j), append(lone, l...)
		} else if sw, ok := c.explained(j.b.bytes); ok && !slowPath(x.s, j, th) {
			c.shown[sw] = append(c.shown[sw], x.s.Benchmark)
			c.other[sw] = c.other[sw] || !c.said[fmt.Sprint(x.s.Benchmark, sw)]
		} else {
			own = append(own, j)
		}
	}
	spikes := x.spikes[:0:0]
	last := x.s.rows[len(x.s.rows)-1].bytes
	for _, j := range x.spikes {
		if c.big(x.s, j.b.bytes) {
			continue
		}
		if in.shared(x.s) && j.b.bytes == last && j.b.bytes >= th.CliffCacheBytes {
			// a step at the largest size where the ranks share a
			// node: the caches, most likely (osu_latency on one
			// node: ×4.3 from 2 to 4 MiB, a 12 MB L3), as the
			// steps before the largest size are read
			c.cached(x.s, j.b.bytes)
			continue
		}
		spikes = append(spikes, j)
	}
	dips, spikes := switchDips(in, x.s, spikes)
	algo := algorithms(in.run.Run, x.s.traits().Collective, x.s.NP)
	out := append(cliffFindings(x.s, own, spikes, algo, lone), dipFindings(x.s, dips, th)...)
	if bigs := c.bigs[x.s]; len(bigs) > 0 {
		out = append(out, bigStepFinding(in, x.s, bigs, algo))
	}
	return append(out, belowSiblings(in, x.s, len(lone) > 0)...)
}

// cacheFinding says the caches' steps once for the run.
func (c *cliffRun) cacheFinding() []Finding {
	if len(c.cache) == 0 {
		return nil
	}
	var where []string
	var all []int64
	for _, b := range c.cacheOrder {
		where = append(where, fmt.Sprintf("%s at %s", b, sizes(c.cache[b])))
		all = append(all, c.cache[b]...)
	}
	slices.Sort(all)
	return []Finding{{Kind: KindCliff, Severity: Info, Series: Series{}, Sizes: all,
		Summary: fmt.Sprintf("steps from %s on in %d benchmark(s) on shared memory: buffers outgrowing the CPU caches, expected", Size(c.in.th.CliffCacheBytes), len(c.cache)),
		Numbers: []string{strings.Join(where, "; ")},
		Cause:   "within a node, messages are memory copies: once the buffers no longer fit a cache level (L2, then L3), each copy runs at the next level's bandwidth; pinning ranks to cores that share a cache moves the step"}}
}

// switchFinding is the finding of a switch point at b, and the
// benchmarks whose steps it explains.
type switchFinding struct {
	f   Finding
	b   int64
	who []string
}

// switchFindings says each switch point that explains steps once for the
// run.
func (c *cliffRun) switchFindings() []switchFinding {
	var out []switchFinding
	for _, b := range slices.Sorted(maps.Keys(c.shown)) {
		who := dedupe(c.shown[b])
		if len(who) < 2 && (!c.other[b] || c.regains[b]) {
			continue // one benchmark's own step, which it makes up for: nothing the MPI does to all
		}
		out = append(out, switchFinding{b: b, who: who, f: Finding{Kind: KindSwitch, Severity: Info, Series: Series{}, Sizes: []int64{b / 2, b},
			Summary: fmt.Sprintf("the step at %s shows in %d benchmark(s): the MPI's switch of protocol or algorithm, expected", Size(b), len(who)),
			Numbers: []string{fmt.Sprintf("%s; steps there (within one size) in %s", c.switchAt[b], strings.Join(who, ", "))},
			Cause:   "MPI libraries send small messages eagerly and larger ones by rendezvous (a handshake first), and switch collective algorithms by size; every benchmark built on the same transfers steps at the same sizes. Move the threshold if the step hurts (Open MPI btl_*_eager_limit, UCX_RNDV_THRESH, I_MPI_EAGER_THRESHOLD, MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE)"}})
	}
	return out
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// slowPath: a step no protocol switch makes, however many benchmarks share
// it: more than SwitchMaxStep times the time for twice the bytes, after
// which the time stays flat (eight times the bytes take less than half as
// long again): the larger messages wait on something other than their
// bytes. A rendezvous adds a round trip or two and then moves bytes
// faster (healthy MPICH shared memory: ×8.7 at 16 KiB, then growing with
// the size); IMB-EXT's puts on a field log step ×13-45 at 4 KiB and stay
// flat to 128 KiB.
func slowPath(s *series, j jump, th Thresholds) bool {
	if s.metric == BW || j.tb <= th.SwitchMaxStep*j.ta {
		return false
	}
	for _, r := range s.rows {
		if r.bytes >= 8*j.b.bytes {
			return r.primaryTime() < 1.5*j.tb
		}
	}
	return false
}

// fallsBack: one of the two sizes after j's takes less time than j's
// larger size: the step does not hold.
func fallsBack(s *series, j jump) bool {
	for i, r := range s.rows {
		if r.bytes != j.b.bytes {
			continue
		}
		for _, q := range s.rows[i+1 : min(i+3, len(s.rows))] {
			if q.primaryTime() < j.tb {
				return true
			}
		}
	}
	return false
}

// repeated: where the log holds other runs of s's benchmark at its process
// count (repetitions: two or more), at least half of them step at size b
// too (within one size); true where there are none to ask. A step one
// repetition of five takes is that launch's noise.
func repeated(in *explainInput, s *series, b int64) bool {
	runs, stepped := 0, 0
	for _, p := range in.peers {
		for _, o := range in.cache.seriesOf(p) {
			if o.Benchmark != s.Benchmark || o.NP != s.NP || o.Suite != s.Suite {
				continue
			}
			runs++
			for _, j := range in.cache.jumpsOf(o, in.th) {
				if j.b.bytes == b || j.b.bytes == b/2 || j.b.bytes == 2*b {
					stepped++
					break
				}
			}
		}
	}
	return runs < 2 || 2*stepped >= runs
}
