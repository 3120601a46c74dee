// Package input resolves what a user names on the command line of the
// analysing commands — record files, logs of IMB-MPI1, OSU or
// mpi-comm-bench, archive run ids and archive selections — into runs, and
// finds in the archive what the analyses hold a run against (its history,
// the launch-to-launch noise of its system), so that the analyses
// themselves read no file and no database.
package input

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

// Resolver turns what a user names — files, archive run ids, archive
// selections — into runs.
type Resolver struct {
	// Archive is the archive's path, opened when an id, a selection or a
	// run's history needs it; "": none.
	Archive string
	// Options label and complete imported logs.
	Options importer.Options
	// Problems collects malformed lines of the files read (file:line).
	Problems []error
	// Warnings collects what the archive says of itself when opened (an
	// SQLite file on a network file system).
	Warnings []string
	db       *archive.DB
}

// ArchiveError is an archive that could not be opened (not an archive, a
// directory, a newer schema).
type ArchiveError struct{ Err error }

func (e *ArchiveError) Error() string { return e.Err.Error() }
func (e *ArchiveError) Unwrap() error { return e.Err }

// Close closes the archive if it was opened.
func (r *Resolver) Close() {
	if r.db != nil {
		r.db.Close()
		r.db = nil
	}
}

func (r *Resolver) archive() (*archive.DB, error) {
	if r.db == nil {
		if r.Archive == "" {
			return nil, errors.New("no archive to read run ids and selections from (give -archive PATH)")
		}
		// A reader never makes an archive: a selection of a missing one
		// (a mistyped -archive or GOMB_ARCHIVE) is an error, not empty.
		db, err := archive.OpenExisting(r.Archive)
		if err != nil {
			return nil, &ArchiveError{err}
		}
		if db.Warning != "" {
			r.Warnings = append(r.Warnings, db.Warning)
		}
		r.db = db
	}
	return r.db, nil
}

// Items splits a side's arguments: each may hold several items separated
// by commas or blanks, except an argument that names a file, which is that
// file whatever its name holds.
func Items(args []string) []string {
	var out []string
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			out = append(out, a) // a file's name may hold blanks and commas
			continue
		}
		out = append(out, strings.FieldsFunc(a, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })...)
	}
	return out
}

// Resolve reads the items of one side: an existing file is imported (gomb
// records or any log gomb import reads), a number is an archive run id,
// KEY=VALUE words together are one archive selection. The runs come in
// the order given (a selection's runs by date). A run named twice (the
// same run id: the same file given again, a copy, an id that a selection
// also picks) counts once, with a problem noted for each repeat.
func (r *Resolver) Resolve(items []string) ([]*result.Bundle, error) {
	runs, err := r.resolve(items)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	kept := runs[:0]
	for _, run := range runs {
		id := run.Run.RunID
		if id != "" && seen[id] {
			r.Problems = append(r.Problems, fmt.Errorf("run %s: named again, counted once", id))
			continue
		}
		seen[id] = true
		kept = append(kept, run)
	}
	return kept, nil
}

func (r *Resolver) resolve(items []string) ([]*result.Bundle, error) {
	var runs []*result.Bundle
	var words []string
	for _, it := range items {
		if st, err := os.Stat(it); err == nil && !st.IsDir() {
			f, err := importer.ImportFile(it, it, r.Options, nil)
			if err != nil {
				return nil, err
			}
			r.Problems = append(r.Problems, f.Problems...)
			if len(f.Runs) == 0 {
				return nil, fmt.Errorf("%s: no results", it)
			}
			runs = append(runs, f.Runs...)
			continue
		}
		if _, err := strconv.ParseInt(it, 10, 64); err == nil || strings.Contains(it, "=") {
			words = append(words, it)
			continue
		}
		return nil, fmt.Errorf("%q is no file, run id or KEY=VALUE selection", it)
	}
	if len(words) > 0 {
		sel, err := archive.ParseSelector(words)
		if err != nil {
			return nil, err
		}
		got, err := r.selected(sel, nil)
		if err != nil {
			return nil, err
		}
		if len(got) == 0 {
			return nil, fmt.Errorf("no archived run matches %q", strings.Join(words, " "))
		}
		runs = append(runs, got...)
	}
	return runs, nil
}

// selected loads the archived runs a selection picks (oldest first), or
// those of them that pick keeps (nil: all).
func (r *Resolver) selected(sel archive.Selector, pick func([]archive.RunInfo) []archive.RunInfo) ([]*result.Bundle, error) {
	db, err := r.archive()
	if err != nil {
		return nil, err
	}
	infos, err := db.List(sel)
	if err != nil {
		return nil, err
	}
	if pick != nil {
		infos = pick(infos)
	}
	var runs []*result.Bundle
	for _, ri := range infos {
		run, err := db.Load(ri.ID)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// History is up to n earlier archived runs of the run's system (and its
// configuration, suite and locality), newest first: what explain holds a
// run against. None when the run has no system label, or there is no
// archive (looking creates none); a run does not count as its own
// history, nor do runs that started after it.
func (r *Resolver) History(run *result.Bundle, n int) ([]*result.Bundle, error) {
	sys := run.Run.Labels["system"]
	if sys == "" || n <= 0 || r.Archive == "" {
		return nil, nil
	}
	if _, err := os.Stat(r.Archive); err != nil {
		return nil, nil
	}
	locality := analysis.Locality([]*result.Bundle{run})
	words := []string{"system=" + sys, "suite=" + run.Run.Suite}
	if c := run.Run.Labels["config"]; c != "" {
		words = append(words, "config="+c)
	}
	if locality != "" {
		words = append(words, "locality="+locality)
	}
	sel, err := archive.ParseSelector(words)
	if err != nil {
		return nil, err
	}
	// the n newest that started before the run, newest first, of the
	// same set-up as far as both say: the same MPI library and process
	// count (one system= label often holds several; their spread is no
	// launch noise)
	mpi, np := run.Run.MPIName(), run.Run.WorldSize
	same := func(ri archive.RunInfo) bool {
		return (mpi == "" || ri.MPI == "" || ri.MPI == mpi) && (np == 0 || ri.NP == 0 || ri.NP == np)
	}
	earlier := func(infos []archive.RunInfo) []archive.RunInfo {
		var kept []archive.RunInfo
		for i := len(infos) - 1; i >= 0 && len(kept) < n; i-- {
			ri := infos[i]
			if ri.RunID != run.Run.RunID && same(ri) && (run.Run.Start.IsZero() || ri.Started.IsZero() || ri.Started.Before(run.Run.Start)) {
				kept = append(kept, ri)
			}
		}
		return kept
	}
	return r.selected(sel, earlier)
}

// LaunchNoise is the noise compare holds sizes against when a side has
// too few launches for its test: given, when the user gave one (source
// "-noise"); else measured over the archive's earlier runs of a side's
// system (three or more: analysis.LaunchNoise); else 0 (compare's
// default).
func (r *Resolver) LaunchNoise(given float64, sides ...[]*result.Bundle) (noise float64, source string) {
	if given > 0 {
		return given, "-noise"
	}
	for _, runs := range sides {
		if len(runs) == 0 || len(runs) >= 4 {
			continue
		}
		last := runs[len(runs)-1]
		hist, err := r.History(last, 10)
		if err != nil || len(hist) < 3 {
			continue
		}
		if n, ok := analysis.LaunchNoise(hist); ok {
			if n > analysis.MaxNoise {
				// runs that far apart are not launches of one set-up
				return 0, fmt.Sprintf("not the archive's last %d runs of system=%s: they spread by %.0f%%, more than launches of one set-up do (%.0f%% at most); label each set-up with config= to measure its noise", len(hist), last.Run.Labels["system"], 100*n, 100*analysis.MaxNoise)
			}
			return n, fmt.Sprintf("measured over the archive's last %d runs of system=%s", len(hist), last.Run.Labels["system"])
		}
	}
	return 0, ""
}
