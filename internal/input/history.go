package input

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
)

// History is every track's series of the runs sel selects in db (report
// -history), marked against a band: the runs refSel selects when byRef
// (-reference), else each series' first nref points; and how many points
// the reference has.
func History(db *archive.DB, sel, refSel archive.Selector, byRef bool, tracks []analysis.Track, nref int, tols analysis.Tolerances) ([]analysis.HistorySeries, int, error) {
	var all []analysis.HistorySeries
	nrefPoints := 0
	for _, t := range tracks {
		pts, err := db.History(sel, t.Benchmark, t.Bytes, 0, string(t.Metric))
		if err != nil {
			return nil, 0, fmt.Errorf("-history: %v", err)
		}
		var ref []archive.Point
		if byRef {
			if ref, err = db.History(refSel, t.Benchmark, t.Bytes, 0, string(t.Metric)); err != nil {
				return nil, 0, fmt.Errorf("-reference: %v", err)
			}
			nrefPoints += len(ref)
		}
		all = append(all, historySeries(t, pts, ref, byRef, nref, tols.For(t.Benchmark, t.Bytes))...)
	}
	return all, nrefPoints, nil
}

// historySeries splits a track's points by process count and locality
// (intra- and inter-node never share a band), in time order, and marks
// each series against its reference: the reference selection's points of
// the same process count and locality, or the series' first nref points.
func historySeries(t analysis.Track, pts, ref []archive.Point, byRef bool, nref int, tol analysis.Tolerance) []analysis.HistorySeries {
	type key struct {
		np  int
		loc string
	}
	var order []key
	by := map[key]*analysis.HistorySeries{}
	for _, p := range pts {
		if p.Status != "ok" || !(p.Value > 0) {
			continue
		}
		k := key{p.NP, p.Run.Locality}
		s := by[k]
		if s == nil {
			s = &analysis.HistorySeries{Track: t, NP: p.NP, Locality: p.Run.Locality}
			by[k] = s
			order = append(order, k)
		}
		when := p.Run.Started
		if when.IsZero() {
			when = p.Run.Added
		}
		s.Points = append(s.Points, analysis.HistoryPoint{Run: p.Run.ID, Time: when, Value: p.Value,
			Config: p.Run.Config, MPI: p.Run.MPI})
	}
	out := make([]analysis.HistorySeries, 0, len(order))
	for _, k := range order {
		s := by[k]
		var vals []float64
		if byRef {
			for _, p := range ref {
				if p.Status == "ok" && p.Value > 0 && p.NP == k.np && p.Run.Locality == k.loc {
					vals = append(vals, p.Value)
				}
			}
		} else {
			for i := 0; i < len(s.Points) && i < nref; i++ {
				vals = append(vals, s.Points[i].Value)
			}
		}
		s.Mark(vals, tol)
		out = append(out, *s)
	}
	return out
}
