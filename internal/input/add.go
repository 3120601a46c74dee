package input

import (
	"fmt"
	"io"
	"strings"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/archive"
	"github.com/gomb-hpc/gomb/result"
)

// AddFiles adds the runs read from files (gomb's records, peers' logs) to
// the archive in batches, saying each run's outcome on stdout once its
// batch is committed (before, it may still be lost: a full disk, a
// signal) and the count on stderr; problems with a file are reported as
// gomb import reports them, and the first file's failure is returned.
func AddFiles(db *archive.DB, files []string, opt importer.Options, stdout, stderr io.Writer) error {
	defer LessGC()()
	added, runs := 0, 0
	var said []string
	saidAdded := 0
	flush := func() {
		for _, l := range said {
			fmt.Fprintln(stdout, l)
		}
		added += saidAdded
		said, saidAdded = said[:0], 0
	}
	batch := db.Batch()
	report := &FileReport{Stderr: stderr}
	r := importer.NewReader(files, opt)
	r.Prepare = func(b *result.Bundle) (any, error) { return archive.Pack(b) }
	err := func() error {
		defer r.Close()
		for run := range report.Runs(r) {
			p := r.Prepared().(*archive.Packed)
			id, out, err := batch.AddPacked(p)
			if err != nil { // the batch is rolled back: nothing of it was added
				said, saidAdded = nil, 0
				return fmt.Errorf("archive add %s: %w", r.Name(), err)
			}
			runs++
			l, isNew := addedLine(id, out, run, p, r.Name())
			if isNew {
				saidAdded++
			}
			said = append(said, l)
			if batch.Pending() == 0 {
				flush()
			}
		}
		if err := r.Err(); err != nil {
			return err
		}
		return report.Failed
	}()
	if cerr := batch.Commit(); cerr != nil {
		if err == nil {
			err = fmt.Errorf("archive add: %w", cerr)
		}
	} else {
		flush()
	}
	fmt.Fprintf(stderr, "gomb archive: %d of %d runs added to %s\n", added, runs, db.Path)
	return err
}

// addedLine is what archive add says of a run once its batch is
// committed, and whether the run was new to the archive.
func addedLine(id int64, out archive.Outcome, run *result.Bundle, p *archive.Packed, name string) (string, bool) {
	switch out {
	case archive.Added, archive.Replaced:
		l := fmt.Sprintf("added run %d: %s %s, %d results (%s)", id, run.Run.Suite, dateAndLabels(run), len(run.Results), name)
		if out == archive.Replaced {
			l += ", in place of the same run added before without its end"
		}
		if p.Incomplete() {
			l += "; incomplete: no end record (the job was still running or was killed); adding the complete records later replaces it"
		}
		return l, true
	}
	// the same measurements, whatever labels this copy carries: name the
	// copy's, not as if they were the archived run's
	return fmt.Sprintf("already archived as run %d, not added again (this copy: %s; %s)", id, dateAndLabels(run), name), false
}

// dateAndLabels names a run in one phrase: its date and labels.
func dateAndLabels(r *result.Bundle) string {
	var parts []string
	if !r.Run.Start.IsZero() {
		parts = append(parts, r.Run.Start.UTC().Format("2006-01-02 15:04"))
	}
	for _, k := range []string{"system", "config"} {
		if v := r.Run.Labels[k]; v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if len(parts) == 0 {
		return "undated"
	}
	return strings.Join(parts, " ")
}
