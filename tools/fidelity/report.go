package main

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/gomb-hpc/gomb/internal/stats"
)

// The fidelity tables: per benchmark and size the median ratio gomb/peer,
// its quartiles, the peer's spread, a verdict; the headline; RSS and wall time.

// headlineSizes are the sizes of the summary table.
var headlineSizes = []int64{1, 8, 1024, 65536, 1 << 20, 4 << 20}

// headline prints, per job and benchmark, the ratio and the peer's spread
// at a few sizes (0 B stands in for 1 B where a benchmark starts at 0).
func headline(w io.Writer, jobs []job, all []launch, rounds int) {
	fmt.Fprintf(w, "\n## headline: ratio gomb/peer (peer spread) at a few sizes\n")
	fmt.Fprintf(w, "%-18s %-24s", "job", "benchmark")
	for _, s := range headlineSizes {
		fmt.Fprintf(w, " %14s", sizeName(s))
	}
	fmt.Fprintln(w)
	for _, j := range jobs {
		by := map[string]map[int64]cell{}
		var order []string
		for _, k := range cellsOf(all, j.name, rounds) {
			if by[k.bench] == nil {
				by[k.bench] = map[int64]cell{}
				order = append(order, k.bench)
			}
			by[k.bench][k.bytes] = k
		}
		for _, b := range order {
			fmt.Fprintf(w, "%-18s %-24s", j.name, b)
			for _, s := range headlineSizes {
				k, ok := by[b][s]
				if !ok && s == 1 {
					k, ok = by[b][0]
				}
				if !ok || k.rounds == 0 {
					fmt.Fprintf(w, " %14s", "-")
					continue
				}
				fmt.Fprintf(w, " %14s", fmt.Sprintf("%.2f (%.2f)", k.ratio, k.spread))
			}
			fmt.Fprintln(w)
		}
	}
}

func sizeName(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

// report prints the ratio tables, the RSS and the wall times.
func report(w io.Writer, c *config, jobs []job, all []launch) {
	fmt.Fprintf(w, "# gomb vs peers, %s: %d rounds ABBA, launcher %q\n", c.label, c.rounds, c.launch)
	fmt.Fprintf(w, "# ratio = median over rounds of gomb/peer (each round: the mean of each program's two launches);\n")
	fmt.Fprintf(w, "# time as reported (IMB t_max, OSU's column; bandwidths as 1/MB/s); [q25 q75] of the ratios;\n")
	fmt.Fprintf(w, "# spread = the peer's own launch-to-launch IQR/median; ok: within 3%%, ok~: within twice the spread\n")
	for _, j := range jobs {
		cells := cellsOf(all, j.name, c.rounds)
		if len(cells) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## %s (%d processes)\n", j.name, j.np)
		fmt.Fprintf(w, "%-28s %9s %12s %7s %17s %7s  %s\n", "benchmark", "bytes", "peer", "ratio", "[q25 q75]", "spread", "verdict")
		for _, k := range cells {
			fmt.Fprintf(w, "%-28s %9d %12.3f %7.3f  [%6.3f %6.3f] %7.3f  %s\n", k.bench, k.bytes, k.peer, k.ratio, k.q25, k.q75, k.spread, k.verdict())
		}
	}
	fmt.Fprintf(w, "\n## summary\n")
	var n, ok, okSpread int
	var every []cell
	for _, j := range jobs {
		for _, k := range cellsOf(all, j.name, c.rounds) {
			every = append(every, k)
			n++
			switch k.verdict() {
			case "ok":
				ok++
			case "ok~":
				okSpread++
			}
		}
	}
	fmt.Fprintf(w, "%d cells: %d within 3%%, %d more within twice the peer's spread, %d outside\n", n, ok, okSpread, n-ok-okSpread)
	in, of := within(every, 0.10, 0, math.MaxInt64)
	inMid, ofMid := within(every, 0.10, 8, 64<<10)
	fmt.Fprintf(w, "%d of %d cells within 10%% of the peer; %d of %d from 8 B to 64 KiB\n", in, of, inMid, ofMid)
	bandTable(w, jobs, all, c.rounds)
	headline(w, jobs, all, c.rounds)
	fmt.Fprintf(w, "\n## peak memory of a rank (MB, median over launches) and wall time per launch (s, median)\n")
	fmt.Fprintf(w, "# RSS counts the program's and libraries' file pages, which the ranks of a node share\n")
	fmt.Fprintf(w, "# through the page cache; USS (private) is what each further rank adds\n")
	fmt.Fprintf(w, "%-18s %4s %8s %8s %6s %8s %8s %6s %7s %7s %6s\n", "job", "rank", "peer RSS", "gomb RSS", "diff", "peer USS", "gomb USS", "diff", "peer s", "gomb s", "ratio")
	for _, j := range jobs {
		pw, gw := wall(all, j.name, "peer"), wall(all, j.name, "gomb")
		for rank := 0; rank < j.np; rank++ {
			pr, gr := memOf(all, j.name, "peer", rank, rssOf), memOf(all, j.name, "gomb", rank, rssOf)
			pu, gu := memOf(all, j.name, "peer", rank, ussOf), memOf(all, j.name, "gomb", rank, ussOf)
			fmt.Fprintf(w, "%-18s %4d %8.1f %8.1f %+6.1f %8.1f %8.1f %+6.1f", j.name, rank, pr, gr, gr-pr, pu, gu, gu-pu)
			if rank == 0 {
				fmt.Fprintf(w, " %7.1f %7.1f %6.2f", pw, gw, gw/pw)
			}
			fmt.Fprintln(w)
		}
	}
}

// within counts the cells of lo to hi bytes that have a ratio, and of
// those the ones whose ratio is within tol of 1. A benchmark without a
// size column (Barrier: bytes 0) counts as the smallest size.
func within(cells []cell, tol float64, lo, hi int64) (in, of int) {
	for _, k := range cells {
		if k.rounds == 0 || (!k.sizeless && (k.bytes < lo || k.bytes > hi)) {
			continue
		}
		of++
		if math.Abs(k.ratio-1) <= tol {
			in++
		}
	}
	return in, of
}

// cell is one (benchmark, size) of a job.
type cell struct {
	bench           string
	bytes           int64
	peer            float64 // median of the peer's launches
	ratio, q25, q75 float64
	spread          float64 // the peer's IQR/median over its launches
	rounds, missing int
	byRound         map[int]float64 // round → that round's ratio
	sizeless        bool            // the benchmark's one row has no size (Barrier)
}

func (k cell) verdict() string {
	d := math.Abs(k.ratio - 1)
	switch {
	case k.rounds == 0:
		return "no data"
	case d <= 0.03:
		return "ok"
	case d <= 2*k.spread:
		return "ok~"
	}
	return "MISS"
}

func cellsOf(all []launch, name string, rounds int) []cell {
	// per key and round: the values of each program
	type pr struct{ peer, gomb []float64 }
	by := map[string]map[int]*pr{}
	for _, l := range all {
		if l.Job != name {
			continue
		}
		for k, v := range l.Values {
			if by[k] == nil {
				by[k] = map[int]*pr{}
			}
			p := by[k][l.Round]
			if p == nil {
				p = &pr{}
				by[k][l.Round] = p
			}
			if l.Prog == "peer" {
				p.peer = append(p.peer, v)
			} else {
				p.gomb = append(p.gomb, v)
			}
		}
	}
	var out []cell
	for k, rs := range by {
		bench, bytes := splitKey(k)
		c := cell{bench: bench, bytes: bytes, byRound: map[int]float64{}}
		var ratios, peers []float64
		for r, p := range rs {
			peers = append(peers, p.peer...)
			if len(p.peer) == 0 || len(p.gomb) == 0 || mean(p.peer) <= 0 {
				c.missing++
				continue
			}
			ratios = append(ratios, mean(p.gomb)/mean(p.peer))
			c.byRound[r] = ratios[len(ratios)-1]
		}
		c.rounds = len(ratios)
		if len(peers) == 0 {
			continue // gomb measured something the peer does not print
		}
		c.peer = quantile(peers, 0.5)
		if c.peer > 0 {
			c.spread = (quantile(peers, 0.75) - quantile(peers, 0.25)) / c.peer
		}
		if len(ratios) > 0 {
			c.ratio, c.q25, c.q75 = quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].bench != out[j].bench {
			return out[i].bench < out[j].bench
		}
		return out[i].bytes < out[j].bytes
	})
	rows := map[string]int{}
	for _, k := range out {
		rows[k.bench]++
	}
	for i := range out {
		out[i].sizeless = rows[out[i].bench] == 1 && out[i].bytes == 0
	}
	return out
}

func wall(all []launch, name, prog string) float64 {
	var v []float64
	for _, l := range all {
		if l.Job == name && l.Prog == prog {
			v = append(v, l.WallS)
		}
	}
	return quantile(v, 0.5)
}

func rssOf(l launch) map[int]int64 { return l.RSSKiB }
func ussOf(l launch) map[int]int64 { return l.USSKiB }

// memOf: the median over a job's launches of one rank's peak (MB).
func memOf(all []launch, name, prog string, rank int, of func(launch) map[int]int64) float64 {
	var v []float64
	for _, l := range all {
		if l.Job == name && l.Prog == prog {
			if k, ok := of(l)[rank]; ok {
				v = append(v, float64(k)/1024)
			}
		}
	}
	return quantile(v, 0.5)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// quantile interpolates linearly between order statistics; NaN if empty.
func quantile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	x := p * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (s[i+1]-s[i])*(x-float64(i))
}

// bands are the seed's message-size bands: latency, eager, rendezvous,
// bandwidth.
var bands = []struct {
	name   string
	lo, hi int64
}{{"0-32 B", 0, 32}, {"64 B-4 KiB", 64, 4 << 10}, {"8-256 KiB", 8 << 10, 256 << 10}, {"512 KiB-4 MiB", 512 << 10, 4 << 20}}

// band is one benchmark's sizes in one band: the geometric mean of the
// ratios and its 95% interval over rounds.
type band struct {
	bench, band string
	sizes       int
	gm, lo, hi  float64 // NaN lo, hi: fewer than two rounds
	rounds      int
}

// The band target: the geometric mean within [0.98, 1.02] and its 95%
// interval holding 1.00.
const bandTol = 0.02

func (b band) verdict() string {
	switch {
	case math.IsNaN(b.lo):
		return "one round"
	case b.lo > 1:
		return fmt.Sprintf("BIAS gomb +%.1f%%", 100*(b.gm-1))
	case b.hi < 1:
		return fmt.Sprintf("BIAS gomb %.1f%%", 100*(b.gm-1))
	case math.Abs(b.gm-1) > bandTol:
		return "unsure" // the interval holds 1 but the mean is off: more rounds
	}
	return "ok"
}

// bandsOf: per benchmark and band, each round's geometric mean of the
// ratios over the band's sizes (the sizes that round has), then their
// geometric mean and a t interval over rounds. Over rounds because a
// launch's own noise (placement, frequency, the machine's other work)
// moves every size of a band together; a bias of a few percent shared by
// a dozen sizes then shows even where each size alone is noisy.
func bandsOf(cells []cell) []band {
	var out []band
	var order []string
	by := map[string][]cell{}
	for _, c := range cells {
		if by[c.bench] == nil {
			order = append(order, c.bench)
		}
		by[c.bench] = append(by[c.bench], c)
	}
	for _, bench := range order {
		for _, bd := range bands {
			perRound := map[int][]float64{}
			sizes := 0
			for _, c := range by[bench] {
				if c.bytes < bd.lo || c.bytes > bd.hi || len(c.byRound) == 0 {
					continue
				}
				sizes++
				for r, q := range c.byRound {
					perRound[r] = append(perRound[r], q)
				}
			}
			if sizes == 0 {
				continue
			}
			var g []float64
			for _, qs := range perRound {
				g = append(g, stats.GeoMean(qs))
			}
			b := band{bench: bench, band: bd.name, sizes: sizes, rounds: len(g)}
			b.gm, b.lo, b.hi = stats.GeoMeanCI(g, 0.95)
			out = append(out, b)
		}
	}
	return out
}

// bandTable prints the band verdicts of every job and their count.
func bandTable(w io.Writer, jobs []job, all []launch, rounds int) {
	fmt.Fprintf(w, "\n## bands: geometric mean of gomb/peer over a band's sizes, 95%% interval over rounds\n")
	fmt.Fprintf(w, "# target: the mean within [%.2f, %.2f] and its interval holding 1.00\n", 1-bandTol, 1+bandTol)
	fmt.Fprintf(w, "%-18s %-24s %-14s %5s %7s %17s  %s\n", "job", "benchmark", "band", "sizes", "gmean", "[95% interval]", "verdict")
	count := map[string]int{}
	n := 0
	for _, j := range jobs {
		for _, b := range bandsOf(cellsOf(all, j.name, rounds)) {
			v := b.verdict()
			fmt.Fprintf(w, "%-18s %-24s %-14s %5d %7.3f  [%6.3f %6.3f]  %s\n", j.name, b.bench, b.band, b.sizes, b.gm, b.lo, b.hi, v)
			n++
			switch {
			case v == "ok":
				count["ok"]++
			case len(v) > 4 && v[:4] == "BIAS":
				count["bias"]++
			default:
				count["other"]++
			}
		}
	}
	fmt.Fprintf(w, "%d bands: %d on target, %d biased (interval without 1.00), %d unsure (more rounds)\n", n, count["ok"], count["bias"], count["other"])
}
