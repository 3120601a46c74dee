package archive

// Copy moves runs from one archive to another, either back end to either:
// each run as it is stored (its records, labels and the time it was
// added), through the same Add as everything else, so that a run the
// destination holds already is left as it is and a copy done twice adds
// nothing the second time. Runs go in the source's order (by date, then
// id), so that the destination lists and exports them in the same order:
// archive export of both is the same, byte for byte.

// CopyStats is what a copy did.
type CopyStats struct {
	Runs  int // runs read from the source
	Added int // of them new to the destination (or replacing an incomplete one)
}

// Copy copies the runs sel picks from src to dst, in transactions of many
// runs; progress, if not nil, is told after each run how many of how many
// are done (the destination may still lose the open transaction's runs).
func Copy(src, dst *DB, sel Selector, progress func(done, total int)) (CopyStats, error) {
	var st CopyStats
	if dst.ReadOnly {
		return st, dst.ReadOnlyError()
	}
	runs, err := src.List(sel)
	if err != nil {
		return st, err
	}
	b := dst.Batch()
	defer b.rollback()
	added := 0
	for i, ri := range runs {
		r, err := src.Load(ri.ID)
		if err != nil {
			return st, err
		}
		p, err := Pack(r)
		if err != nil {
			return st, err
		}
		p.added = stamp(ri.Added)
		if _, out, err := b.AddPacked(p); err != nil {
			return st, err
		} else if out != Known {
			added++
		}
		if b.Pending() == 0 { // committed
			st.Runs, st.Added = i+1, added
		}
		if progress != nil {
			progress(i+1, len(runs))
		}
	}
	if err := b.Commit(); err != nil {
		return st, err
	}
	st.Runs, st.Added = len(runs), added
	return st, nil
}
