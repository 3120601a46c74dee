package importer

import (
	"fmt"
	"io"

	"github.com/gomb-hpc/gomb/result"
)

// gomb's own record files, read back.

// importRecords reads gomb's own record files: one Run per run_id.
func importRecords(f *File, r io.Reader) {
	d := result.NewDecoder(r, f.Name)
	byID := map[string]*result.Bundle{}
	var runs []*result.Bundle // in the order of their first record
	get := func(id string) *result.Bundle {
		r := byID[id]
		if r == nil {
			r = &result.Bundle{}
			byID[id] = r
			runs = append(runs, r)
		}
		return r
	}
	for d.Scan() {
		switch rec := d.Record().(type) {
		case *result.Run:
			r := get(rec.RunID)
			r.Run = rec
			for k, v := range rec.Labels {
				if result.CheckLabel(k) != nil || result.CheckLabel(v) != nil {
					delete(rec.Labels, k)
					rec.Labels[result.EscapeLabel(k)] = result.EscapeLabel(v)
					f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: d.Line(), Kept: true,
						Err: fmt.Errorf("label %s=%s: control characters, stored escaped", result.EscapeLabel(k), result.EscapeLabel(v))})
				}
			}
			if rec.Source == nil {
				rec.Source = &result.Source{Format: string(Records), File: f.Name, Hash: f.Hash}
			}
			// labels given on import (-system, -config, -label) join those
			// the run was measured with, which win
			for k, v := range f.Options.Labels {
				if _, ok := rec.Labels[k]; !ok {
					if rec.Labels == nil {
						rec.Labels = map[string]string{}
					}
					rec.Labels[k] = v
				}
			}
		case *result.Result:
			r := get(rec.RunID)
			r.Results = append(r.Results, rec)
		case *result.End:
			get(rec.RunID).End = rec
		case *result.SyntaxError:
			f.Problems = append(f.Problems, rec)
		}
	}
	// Results without their run record cannot be placed.
	for _, r := range runs {
		if r.Run == nil {
			f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: 0,
				Err: fmt.Errorf("%d result records of a run without its run record", len(r.Results))})
			continue
		}
		f.Keep(r)
	}
}
