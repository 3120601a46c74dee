package analysis

import (
	"fmt"
	"sort"

	"github.com/gomb-hpc/gomb/result"
)

// Finding is one thing explain says about a run: what (Summary), the
// numbers behind it, and the likely cause.
type Finding struct {
	Kind     string   `json:"kind"`     // one of the Kind* constants
	Severity string   `json:"severity"` // "warning" or "info"
	Series   Series   `json:"series"`   // the benchmark and process count ("" benchmark: the whole run)
	Sizes    []int64  `json:"sizes"`
	Summary  string   `json:"summary"`
	Numbers  []string `json:"numbers"`
	Cause    string   `json:"cause"`
}

// The kinds of findings.
const (
	KindVariability    = "variability"
	KindBimodal        = "bimodal"
	KindCliff          = "cliff"
	KindSwitch         = "protocol-switch"
	KindPlateau        = "plateau"
	KindEfficiency     = "link-efficiency"
	KindCollective     = "collective-model"
	KindFabric         = "fabric"
	KindStraggler      = "straggler"
	KindHistory        = "history"
	KindRegimes        = "regimes"
	KindOversubscribed = "oversubscribed"
	KindFault          = "fault-injected"
	KindSiblings       = "siblings"
	KindNIC            = "nic"
	KindIncomplete     = "incomplete"
	KindFall           = "bandwidth-fall"
	KindScaling        = "scaling"
	KindOneSided       = "one-sided"
	KindGPU            = "gpu"
)

// Severities.
const (
	Warning = "warning"
	Info    = "info"
)

// ExplainOptions tune explain.
type ExplainOptions struct {
	Link       Link        `json:"link"`       // zero: the run's own record of its links, if any
	Thresholds *Thresholds `json:"thresholds"` // nil: DefaultThresholds
	// History are earlier runs of the same system, configuration and
	// locality (the archive's), which the run is held against.
	History []*result.Bundle `json:"-"`
	// Peers are the runs read with this one (NewPeers): those of the
	// same log are its peers. A run without a ping-pong of its own (an
	// OSU log holds one test a run) models its collectives from theirs,
	// and a step they share at the same size is the MPI's.
	Peers *Peers `json:"-"`
}

// Peers are runs read together, grouped by the file they came from (the
// same content hash), with what explain computes of them kept for the
// next run of the same file: a log of hundreds of runs is explained in
// time linear in its size. Not for use by several goroutines at once.
type Peers struct {
	byHash map[string][]*result.Bundle
	series map[*result.Bundle][]*series
	jumps  map[*series][]jump
}

// NewPeers groups runs by the file they were read from.
func NewPeers(all []*result.Bundle) *Peers {
	p := &Peers{byHash: map[string][]*result.Bundle{}, series: map[*result.Bundle][]*series{}, jumps: map[*series][]jump{}}
	for _, r := range all {
		if r.Run.Source != nil && r.Run.Source.Hash != "" {
			p.byHash[r.Run.Source.Hash] = append(p.byHash[r.Run.Source.Hash], r)
		}
	}
	return p
}

// of are r's peers: the other runs of its file.
func (p *Peers) of(r *result.Bundle) []*result.Bundle {
	if p == nil || r.Run.Source == nil {
		return nil
	}
	var out []*result.Bundle
	for _, o := range p.byHash[r.Run.Source.Hash] {
		if o != r {
			out = append(out, o)
		}
	}
	return out
}

// seriesOf is collect(r), once.
func (p *Peers) seriesOf(r *result.Bundle) []*series {
	if p == nil {
		return collect(r)
	}
	if ss, ok := p.series[r]; ok {
		return ss
	}
	ss := collect(r)
	p.series[r] = ss
	return ss
}

// jumpsOf are the steps of a peer's series, once.
func (p *Peers) jumpsOf(s *series, th Thresholds) []jump {
	if j, ok := p.jumps[s]; ok {
		return j
	}
	j, _ := steps(s, th)
	p.jumps[s] = j
	return j
}

// Explain lists what stands out in a run, warnings first.
func Explain(r *result.Bundle, o ExplainOptions) []Finding {
	if o.Link.Gbps == 0 {
		o.Link = RunLink(r.Run)
	}
	th := DefaultThresholds
	if o.Thresholds != nil {
		th = *o.Thresholds
	}
	in := &explainInput{run: r, series: collect(r), loc: Locality([]*result.Bundle{r}), link: o.Link, th: th, history: o.History, peers: o.Peers.of(r), cache: o.Peers}
	in.ev = gatherEvidence(r, in.loc)
	if in.ev.provider == "tofu" { // a network faster than FabricNetMin's
		th.FabricNetMin = min(th.FabricNetMin, th.FabricTofu)
		in.th = th
	}
	ss, whose := in.series, "the latency"
	gpu := gpuBuffers(r.Run)
	if _, from, _ := smallLatency(ss, gpu); from == nil {
		if ref, line := peerReference(in); ref != nil { // an OSU log's other tests
			ss, whose = []*series{ref}, fmt.Sprintf("the latency of the log's %s (line %d)", ref.traits().Label, line)
		}
	}
	if lat, from, _ := smallLatency(ss, gpu); in.loc == "" && from != nil {
		// a log that does not say where its ranks ran (IMB's, OSU's):
		// below any network's latency they shared a node; below a
		// microsecond they most likely did (EDR and HDR InfiniBand
		// reach 0.8-1 µs)
		switch {
		case lat < th.FabricNetMin:
			in.loc, in.inferred = result.IntraNode, true
			in.ev.loc, in.ev.locFrom = in.loc, fmt.Sprintf("%s, %s, below any network's", whose, us(lat))
		case lat < th.FabricShm:
			in.shmLikely = true
		}
	}
	var fs []Finding
	for i := 0; i < len(rules); {
		if rules[i].run != nil {
			fs = append(fs, rules[i].run(in)...)
			i++
			continue
		}
		j := i // a block of series rules runs series by series
		for j < len(rules) && rules[j].series != nil {
			j++
		}
		for _, s := range in.series {
			var mine []Finding
			for _, ru := range rules[i:j] {
				mine = append(mine, ru.series(in, s, mine)...)
			}
			fs = append(fs, mine...)
		}
		i = j
	}
	fs = reconcile(fs)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity == Warning && fs[j].Severity != Warning })
	return consolidate(in, fs)
}

// explainInput is what the rules read: the run, its series, its locality
// and the link.
type explainInput struct {
	run    *result.Bundle
	series []*series
	loc    string
	ev     evidence
	// shmLikely: the run does not say where its ranks ran and its latency
	// is that of shared memory or the fastest networks
	shmLikely bool
	// inferred: loc is read from the latency of two ranks (IMB's PingPong
	// on ranks 0 and 1), which says nothing of more ranks
	inferred bool
	link     Link
	th       Thresholds
	history  []*result.Bundle
	peers    []*result.Bundle
	cache    *Peers // where the peers' series are kept
}

// A rule finds one kind of thing (rule_*.go, one file each): over the
// whole run (run), or in each series (series), where it reads what the
// rules before it found in that series.
type rule struct {
	run    func(in *explainInput) []Finding
	series func(in *explainInput, s *series, before []Finding) []Finding
}

// rules run in this order, and their findings come out in it, warnings
// first.
var rules = []rule{
	{run: setup},
	{run: fabric},
	{series: func(in *explainInput, s *series, _ []Finding) []Finding { return variability(in, s) }},
	{series: func(in *explainInput, s *series, _ []Finding) []Finding { return bimodal(s, in.th) }},
	{series: tails},
	{series: func(in *explainInput, s *series, _ []Finding) []Finding { return protocolSwitch(s, in.th) }},
	{series: bandwidthSwitch},
	{series: gpuStaging},
	{series: inversions},
	{series: func(in *explainInput, s *series, _ []Finding) []Finding { return regimes(s, in.th) }},
	{series: func(in *explainInput, s *series, _ []Finding) []Finding { return efficiency(s, in.link, in.loc, in.th) }},
	{run: cliffs}, // steps at the run's switch points are said once
	{run: bandwidthFall},
	{run: bandwidthOverNP},
	{run: modes},
	{run: oneSidedPath},
	{run: collectiveModel},
	{run: func(in *explainInput) []Finding { return stragglers(in.run, in.th) }},
	{run: history},
	{run: nicTraffic},
	{run: fleetFindings},
	{run: congestionFindings},
}

// oneNode: s's ranks are known to share a node (or, read from the latency
// of two ranks, s has two); shared: they may (oneNode, or a log that does
// not say with a latency below a microsecond).
func (in *explainInput) oneNode(s *series) bool {
	return in.loc == result.IntraNode && (!in.inferred || s.NP <= 2)
}

func (in *explainInput) shared(s *series) bool {
	return in.oneNode(s) || in.shmLikely && s.NP <= 2
}
