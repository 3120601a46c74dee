package analysis

import (
	"fmt"
	"math"

	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/result"
)

// CompareOptions tune a comparison.
type CompareOptions struct {
	Metric     Metric  `json:"metric"`     // "" for each benchmark's primary metric
	Alpha      float64 `json:"alpha"`      // false discovery rate over all sizes (0.05)
	Confidence float64 `json:"confidence"` // of the speed interval (0.95)
	Force      bool    `json:"force"`      // compare intra-node with inter-node runs
	// Noise is the launch-to-launch noise of one value (the standard
	// deviation of its logarithm) that rows are judged by when there are
	// too few launches for the U test; 0: DefaultNoise.
	Noise float64 `json:"noise"`
	// NoiseSource says where Noise comes from ("-noise", "the archive's
	// last 10 runs of system=hpc4"); "" with DefaultNoise.
	NoiseSource string `json:"noise_source"`
	// LinkA and LinkB are the links link_efficiency is taken against on
	// each side (zero: each run's recorded link).
	LinkA Link `json:"link_a"`
	LinkB Link `json:"link_b"`
}

// DefaultNoise is the launch-to-launch noise assumed without a history:
// 0.15, a 15% standard deviation per launch. Shared-memory launches on
// gomb's test machine move 2-8% at most sizes, with single sizes up to
// 3.9× now and then; with NoiseZ = 3 one launch a side calls a difference
// beyond 1.89× (two a side: 1.57×, three: 1.44×).
const DefaultNoise = 0.15

// NoiseZ is how many standard deviations of the noise model a difference
// must exceed.
const NoiseZ = 3.0

// Row compares one key.
type Row struct {
	Key    Key     `json:"key"`
	Metric Metric  `json:"metric"`
	A      []Float `json:"a"` // one value per run
	B      []Float `json:"b"`
	// CentreA and CentreB are the medians of the runs' values.
	CentreA Float `json:"centre_a"`
	CentreB Float `json:"centre_b"`
	// Speed is how much faster B is than A (> 1: B faster, for times
	// A's time over B's), the Hodges-Lehmann estimate over all pairs of
	// runs; Lo and Hi its interval, when the runs allow one (CI).
	Speed Float `json:"speed"`
	Lo    Float `json:"lo"`
	Hi    Float `json:"hi"`
	CI    bool  `json:"ci"`
	// P is the U test's p-value, Q the same after the false discovery
	// rate correction over every row; Significant is Q < alpha.
	P           Float `json:"p"`
	Q           Float `json:"q"`
	Significant bool  `json:"significant"`
	// BeyondNoise: too few launches for the U test, but the difference
	// exceeds the launch-noise model (CompareOptions.Noise) NoiseZ times
	// over: B differs from A by more than launches differ.
	BeyondNoise bool `json:"beyond_noise"`
}

// Mark is how tables mark a row: "*" significant, "!" beyond the launch
// noise (too few launches for a test), "~" neither.
func (r Row) Mark() string {
	switch {
	case r.Significant:
		return "*"
	case r.BeyondNoise:
		return "!"
	}
	return "~"
}

// Mark is how tables mark a band: "" some size significant (or no size),
// "!" some beyond the launch noise, "~" none either.
func (b BandSpeed) Mark() string {
	switch {
	case b.Sizes == 0 || b.Significant > 0:
		return ""
	case b.BeyondNoise > 0:
		return "!"
	}
	return "~"
}

// BandSpeed is the geometric mean of a series' speeds in one size band.
type BandSpeed struct {
	Speed       Float `json:"speed"` // NaN: no size in the band
	Sizes       int   `json:"sizes"`
	Significant int   `json:"significant"`  // sizes with a significant difference
	BeyondNoise int   `json:"beyond_noise"` // sizes beyond the launch-noise model (too few launches for the U test)
}

// SeriesSummary is one benchmark at one process count: the geometric
// mean over all its sizes and per band.
type SeriesSummary struct {
	Series  Series      `json:"series"`
	GeoMean Float       `json:"geo_mean"`
	Sizes   int         `json:"sizes"`
	Bands   []BandSpeed `json:"bands"`
}

// Side describes one side of a comparison.
type Side struct {
	Name     string   `json:"name"`
	Runs     int      `json:"runs"`
	Locality string   `json:"locality"`
	Labels   []string `json:"labels"` // distinct system/config/MPI names of its runs
}

// Comparison is the result of Compare.
type Comparison struct {
	A        Side            `json:"a"`
	B        Side            `json:"b"`
	Alpha    float64         `json:"alpha"`
	Noise    float64         `json:"noise"` // the launch-noise model in force
	Rows     []Row           `json:"rows"`
	Series   []SeriesSummary `json:"series"`
	Verdict  Verdict         `json:"verdict"`
	Warnings []string        `json:"warnings"`
}

// Compare sets B against A, size by size, each launch one observation.
func Compare(nameA string, a []*result.Bundle, nameB string, b []*result.Bundle, o CompareOptions) (*Comparison, error) {
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Noise == 0 {
		src := "gomb's default"
		if o.NoiseSource != "" { // why a measured noise was not taken
			src += "; " + o.NoiseSource
		}
		o.Noise, o.NoiseSource = DefaultNoise, src
	}
	c := &Comparison{A: side(nameA, a), B: side(nameB, b), Alpha: o.Alpha, Noise: o.Noise}
	la, lb := c.A.Locality, c.B.Locality
	if !o.Force && (la == result.Mixed || lb == result.Mixed || la != "" && lb != "" && la != lb) {
		return nil, fmt.Errorf("A is %s, B is %s: intra-node (shared memory) and inter-node (network) runs do not compare; keep their baselines apart or -force", dashed(la), dashed(lb))
	}
	if la != lb && (la == "" || lb == "") {
		c.Warnings = append(c.Warnings, fmt.Sprintf("A is %s, B is %s: where a side does not say where its ranks ran (an imported log without a launch line), it may be shared memory against a network; give it with gomb import -locality", dashed(la), dashed(lb)))
	}
	oa, ob, used := observePair(a, b, o.Metric, o.LinkA, o.LinkB)
	var ps []float64
	for _, k := range Keys(oa) {
		pb, ok := ob[k]
		if !ok {
			continue
		}
		av, bv := values(oa[k]), values(pb)
		r := Row{Key: k, Metric: used[k], A: floats(av), B: floats(bv),
			CentreA: Float(stats.Median(av)), CentreB: Float(stats.Median(bv))}
		sh := stats.HodgesLehmann(logs(av), logs(bv), o.Confidence) // log B - log A
		sign := 1.0
		if !r.Metric.HigherIsBetter() {
			sign = -1 // a shorter time is faster
		}
		lo, hi := math.Exp(sign*sh.Lo), math.Exp(sign*sh.Hi)
		if lo > hi {
			lo, hi = hi, lo
		}
		r.Speed, r.Lo, r.Hi = Float(math.Exp(sign*sh.Est)), Float(lo), Float(hi)
		r.CI = sh.OK
		p := stats.UTest(av, bv).P
		r.P = Float(p)
		ps = append(ps, p)
		c.Rows = append(c.Rows, r)
	}
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("A and B have no benchmark, process count and size in common")
	}
	for i, q := range stats.BenjaminiHochberg(ps) {
		c.Rows[i].Q = Float(q)
		c.Rows[i].Significant = q < o.Alpha
	}
	few := false
	for i := range c.Rows {
		r := &c.Rows[i]
		if stats.MinUTestP(len(r.A), len(r.B)) < o.Alpha {
			continue
		}
		few = true
		limit := NoiseZ * o.Noise * math.Sqrt(1/float64(len(r.A))+1/float64(len(r.B)))
		r.BeyondNoise = math.Abs(math.Log(float64(r.Speed))) > limit
	}
	c.Series = summarise(c.Rows)
	c.Verdict = verdict(c.Rows)
	minA, minB := math.MaxInt, math.MaxInt
	for _, r := range c.Rows {
		minA, minB = min(minA, len(r.A)), min(minB, len(r.B))
	}
	if few {
		c.Warnings = append(c.Warnings, fmt.Sprintf("too few runs for the U test (%d against %d launches; it needs about 4 a side for p < %g): rows are judged against a launch-to-launch noise of %.0f%% (%s) instead, differences beyond %.2fx marked '!'; run each side 4-5 times for a test",
			minA, minB, o.Alpha, 100*o.Noise, o.NoiseSource, math.Exp(NoiseZ*o.Noise*math.Sqrt(1/float64(minA)+1/float64(minB)))))
	}
	if len(c.Rows) > 1 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("significance is corrected for the %d sizes compared at once (Benjamini-Hochberg, false discovery rate %g)", len(c.Rows), o.Alpha))
	}
	return c, nil
}

func dashed(s string) string {
	if s == "" {
		return "of unknown locality"
	}
	return s
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

func side(name string, runs []*result.Bundle) Side {
	s := Side{Name: name, Runs: len(runs), Locality: Locality(runs)}
	seen := map[string]bool{}
	for _, r := range runs {
		for _, l := range []string{r.Run.Labels["system"], r.Run.Labels["config"], r.Run.MPIName()} {
			if l != "" && !seen[l] {
				seen[l] = true
				s.Labels = append(s.Labels, l)
			}
		}
	}
	return s
}

// summarise computes each series' geometric mean, overall and per band.
func summarise(rows []Row) []SeriesSummary {
	var out []SeriesSummary
	at := map[Series]int{}
	speeds := map[Series][][]float64{}
	all := map[Series][]float64{}
	for _, r := range rows {
		s := r.Key.Series()
		i, ok := at[s]
		if !ok {
			i = len(out)
			at[s] = i
			out = append(out, SeriesSummary{Series: s, Bands: make([]BandSpeed, len(Bands))})
			speeds[s] = make([][]float64, len(Bands))
		}
		b := BandOf(r.Key.Bytes)
		speeds[s][b] = append(speeds[s][b], float64(r.Speed))
		all[s] = append(all[s], float64(r.Speed))
		if r.Significant {
			out[i].Bands[b].Significant++
		}
		if r.BeyondNoise {
			out[i].Bands[b].BeyondNoise++
		}
	}
	for i := range out {
		s := out[i].Series
		out[i].GeoMean, out[i].Sizes = Float(stats.GeoMean(all[s])), len(all[s])
		for b := range Bands {
			out[i].Bands[b].Speed, out[i].Bands[b].Sizes = Float(stats.GeoMean(speeds[s][b])), len(speeds[s][b])
		}
	}
	return out
}

// MinNoise is the least launch-to-launch noise LaunchNoise reports: runs
// that happen to agree closely do not make a noiseless machine.
const MinNoise = 0.02

// MaxNoise is the most launch-to-launch noise a set of runs of one set-up
// shows: this project's VM, which switches performance regimes between
// launches, reaches 0.3 (2× at the extremes); the 0.89 of a field archive
// whose system= label held runs of several set-ups demanded a 44× gap
// before a difference counted.
const MaxNoise = 0.35

// LaunchNoise is the launch-to-launch noise of a set of runs of one
// system (the standard deviation of a value's logarithm, robustly: 1.4826
// × the median absolute deviation, at every key three runs or more share,
// the median over the keys; MinNoise at least); ok is false when no key
// has three runs.
func LaunchNoise(runs []*result.Bundle) (noise float64, ok bool) {
	var sds []float64
	for _, ps := range Observe(runs, "") {
		if len(ps) < 3 {
			continue
		}
		sds = append(sds, stats.MAD(logs(values(ps))))
	}
	if len(sds) == 0 {
		return 0, false
	}
	return max(stats.Median(sds), MinNoise), true
}
