package analysis

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/stats"
)

// Track is what a history follows: one metric of one benchmark at one
// message size.
type Track struct {
	Benchmark string `json:"benchmark"`
	Bytes     int64  `json:"bytes"`
	Metric    Metric `json:"metric"`
}

// String writes the track as ParseTrack reads it: "PingPong@8:t_avg_us",
// "PingPong@4m:mbytes_per_sec".
func (t Track) String() string {
	size := fmt.Sprint(t.Bytes)
	for _, u := range []struct {
		n   int64
		suf string
	}{{1 << 30, "g"}, {1 << 20, "m"}, {1 << 10, "k"}} {
		if t.Bytes >= u.n && t.Bytes%u.n == 0 {
			size = fmt.Sprintf("%d%s", t.Bytes/u.n, u.suf)
			break
		}
	}
	return fmt.Sprintf("%s@%s:%s", t.Benchmark, size, t.Metric)
}

// DefaultTracks are the key numbers of a system over time: small-message
// latency and large-message bandwidth of PingPong, Allreduce small and
// large, Barrier.
var DefaultTracks = []Track{
	{"PingPong", 8, TAvg}, {"PingPong", 4 << 20, BW},
	{"Allreduce", 8, TAvg}, {"Allreduce", 1 << 20, TAvg},
	{"Barrier", 0, TAvg},
}

// ParseTrack reads BENCH[@SIZE][:METRIC]: a size in bytes with an
// optional k, m or g (default 0), a metric among t_avg_us, t_min_us,
// t_max_us and mbytes_per_sec (default t_avg_us).
func ParseTrack(s string) (Track, error) {
	rest, metric, _ := strings.Cut(s, ":")
	name, size, at := strings.Cut(rest, "@")
	_, _, colon := strings.Cut(s, ":")
	t := Track{Benchmark: strings.TrimSpace(name), Metric: TAvg}
	if t.Benchmark == "" || (at && strings.TrimSpace(size) == "") || (colon && strings.TrimSpace(metric) == "") {
		// "PingPong@" is no size, not 0 bytes; "PingPong:" no metric
		return t, fmt.Errorf("track %q: want BENCH[@SIZE][:METRIC]", s)
	}
	if size != "" {
		v, err := bench.ParseSize(size)
		if err != nil {
			return t, fmt.Errorf("track %q: %v", s, err)
		}
		t.Bytes = v
	}
	if metric != "" {
		switch m := Metric(metric); m {
		case TAvg, TMin, TMax, BW:
			t.Metric = m
		default:
			return t, fmt.Errorf("track %q: metric %q (want t_avg_us, t_min_us, t_max_us or mbytes_per_sec)", s, metric)
		}
	}
	return t, nil
}

// HistoryPoint is one run's value on a track.
type HistoryPoint struct {
	Run   int64     `json:"run"` // archive id
	Time  time.Time `json:"time"`
	Value float64   `json:"value"`
	// Note names the run for people: its config and MPI library.
	Config string `json:"config"`
	MPI    string `json:"mpi"`
	// Beyond: the value is beyond the band the wrong way (a time above
	// it, a bandwidth below), where gomb check of the run against the
	// reference runs would call this size a regression.
	Beyond bool `json:"beyond"`
}

// HistorySeries is a track at one process count and locality, over time,
// with the band the reference runs allow.
type HistorySeries struct {
	Track    Track          `json:"track"`
	NP       int            `json:"np"`
	Locality string         `json:"locality"`
	Points   []HistoryPoint `json:"points"`
	// Base is the reference runs' median, Spread their 1.4826 MAD (0
	// with fewer than three), Allowed the share of Base a value may move
	// the wrong way: the larger of the tolerance and 3 x Spread/Base, as
	// gomb check allows; Lo and Hi the band Base x (1 -/+ Allowed). Ref
	// counts the reference runs (0: no band).
	Base    Float `json:"base"`
	Spread  Float `json:"spread"`
	Allowed Float `json:"allowed"`
	Lo      Float `json:"lo"`
	Hi      Float `json:"hi"`
	Ref     int   `json:"ref"`
}

// Label names the series: "PingPong 8 B t_avg_us, np 2, inter-node".
func (s HistorySeries) Label() string {
	l := fmt.Sprintf("%s %s %s, np %d", s.Track.Benchmark, Size(s.Track.Bytes), s.Track.Metric, s.NP)
	if s.Locality != "" {
		l += ", " + s.Locality
	}
	return l
}

// Mark sets the series' band from the reference values and marks the
// points beyond it. Without reference values there is no band.
func (s *HistorySeries) Mark(ref []float64, tol Tolerance) {
	nan := Float(math.NaN())
	s.Base, s.Spread, s.Allowed, s.Lo, s.Hi, s.Ref = nan, nan, nan, nan, nan, len(ref)
	if len(ref) == 0 {
		return
	}
	base, spread := stats.Median(ref), 0.0
	if len(ref) >= 3 {
		spread = stats.MAD(ref)
	}
	if !(base > 0) {
		return
	}
	allowed := math.Max(math.Max(tol.Rel, tol.Abs/base), 3*spread/base)
	s.Base, s.Spread, s.Allowed = Float(base), Float(spread), Float(allowed)
	s.Lo, s.Hi = Float(base*(1-allowed)), Float(base*(1+allowed))
	for i := range s.Points {
		v := s.Points[i].Value
		if s.Track.Metric.HigherIsBetter() {
			s.Points[i].Beyond = v < float64(s.Lo)
		} else {
			s.Points[i].Beyond = v > float64(s.Hi)
		}
	}
}

// ParseTracks reads a comma-separated list of tracks.
func ParseTracks(list string) ([]Track, error) {
	var out []Track
	for _, f := range strings.Split(list, ",") {
		t, err := ParseTrack(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
