// Command recordcost summarises what gomb's records cost by world size,
// from the end records' record_cost of record files (scripts/bench-
// records.sh makes them), and extrapolates linearly to larger jobs.
package main

import (
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/gomb-hpc/gomb/result"
)

type launch struct {
	np, results, samples int
	bytes, perSample     float64 // per result record, per raw sample
	encodeMS, gatherMS   float64 // per result
	rssMB                float64
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: recordcost FILE.jsonl...")
		os.Exit(2)
	}
	byNP := map[int][]launch{}
	for _, f := range os.Args[1:] {
		l, err := read(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "recordcost:", err)
			os.Exit(1)
		}
		byNP[l.np] = append(byNP[l.np], l)
	}
	var nps []int
	for np := range byNP {
		nps = append(nps, np)
	}
	sort.Ints(nps)
	fmt.Printf("%6s %8s %14s %10s %10s %10s %10s\n", "np", "launches", "bytes/result", "B/sample", "encode ms", "gather ms", "rank0 MB")
	var med []launch
	for _, np := range nps {
		ls := byNP[np]
		m := launch{np: np,
			bytes:     median(ls, func(l launch) float64 { return l.bytes }),
			perSample: median(ls, func(l launch) float64 { return l.perSample }),
			encodeMS:  median(ls, func(l launch) float64 { return l.encodeMS }),
			gatherMS:  median(ls, func(l launch) float64 { return l.gatherMS }),
			rssMB:     median(ls, func(l launch) float64 { return l.rssMB }),
		}
		med = append(med, m)
		fmt.Printf("%6d %8d %14.0f %10.2f %10.2f %10.2f %10.1f\n", np, len(ls), m.bytes, m.perSample, m.encodeMS, m.gatherMS, m.rssMB)
	}
	if len(med) < 2 {
		return
	}
	// Least squares in np: bytes, encode and gather time per result grow
	// with the samples (np x 1,000 here).
	fit := func(y func(launch) float64) (a, b float64) {
		var sx, sy, sxx, sxy float64
		for _, m := range med {
			x := float64(m.np)
			sx, sy, sxx, sxy = sx+x, sy+y(m), sxx+x*x, sxy+x*y(m)
		}
		n := float64(len(med))
		b = (n*sxy - sx*sy) / (n*sxx - sx*sx)
		return (sy - b*sx) / n, b
	}
	ba, bb := fit(func(m launch) float64 { return m.bytes })
	ea, eb := fit(func(m launch) float64 { return m.encodeMS })
	ga, gb := fit(func(m launch) float64 { return m.gatherMS })
	ra, rb := fit(func(m launch) float64 { return m.rssMB })
	const sweep = 24 * 12 // a default IMB-MPI1 run: 24 sizes x 12 benchmarks at the full np
	fmt.Printf("\nextrapolated (linear in np; 1,000 repetitions a size):\n")
	fmt.Printf("%6s %14s %10s %10s %10s %18s %16s\n", "np", "bytes/result", "encode ms", "gather ms", "rank0 MB", "sweep of 288 (MB)", "sweep encode s")
	for _, np := range []float64{256, 1024, 4096} {
		b, e, g, r := ba+bb*np, ea+eb*np, ga+gb*np, ra+rb*np
		fmt.Printf("%6.0f %14.0f %10.1f %10.1f %10.0f %18.0f %16.1f\n", np, b, e, g, r, b*sweep/1e6, e*sweep/1e3)
	}
}

func read(path string) (launch, error) {
	f, err := os.Open(path)
	if err != nil {
		return launch{}, err
	}
	defer f.Close()
	d := result.NewDecoder(f, path)
	var l launch
	var end *result.End
	for d.Scan() {
		switch r := d.Record().(type) {
		case *result.Run:
			l.np = r.WorldSize
		case *result.Result:
			l.results++
			for _, s := range r.SamplesUS {
				l.samples += len(s)
			}
		case *result.End:
			end = r
		}
	}
	if d.Err() != nil {
		return l, d.Err()
	}
	if end == nil || end.Cost == nil || l.results == 0 {
		return l, fmt.Errorf("%s: no end record with record_cost, or no results", path)
	}
	c := end.Cost
	r := float64(l.results)
	l.bytes = float64(c.Bytes) / r
	l.perSample = float64(c.Bytes) / float64(max(1, l.samples))
	l.encodeMS = c.EncodeS * 1e3 / r
	l.gatherMS = c.GatherS * 1e3 / r
	l.rssMB = c.PeakRSSMB
	return l, nil
}

func median(ls []launch, f func(launch) float64) float64 {
	v := make([]float64, len(ls))
	for i, l := range ls {
		v[i] = f(l)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
