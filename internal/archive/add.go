package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/gomb-hpc/gomb/result"
)

// Adding runs: Pack (encoding, compression; no database) and Batch (many
// runs a transaction, statements prepared once).

// identities are what make a run the same run twice: a measured run's id;
// an imported run's digest and index in its log (the same when the log is
// renamed, copied or grows by more runs). legacy is the identity gomb
// gave imported runs before they had a digest (the whole file's hash and
// the index), still matched so that the same log is never added twice.
func identities(r *result.Run) (id, legacy string) {
	s := r.Source
	switch {
	case s == nil || s.Format == result.RecordsFormat:
		return r.RunID, ""
	case s.Digest != "":
		return fmt.Sprintf("%s:%d", s.Digest, s.Index), fmt.Sprintf("%s:%d", s.Hash, s.Index)
	}
	return fmt.Sprintf("%s:%d", s.Hash, s.Index), ""
}

// Outcome is what adding a run did.
type Outcome int

const (
	Known    Outcome = iota // the run was in the archive already: left as it was
	Added                   // a new run
	Replaced                // the run was in the archive without its end (a job still running, or killed): the more complete one replaced it
)

// Add stores a run and its results in one transaction. A run already in
// the archive is left as it is (added is false, id is the stored run),
// unless the stored one was incomplete (see Replaced).
func (d *DB) Add(r *result.Bundle) (id int64, added bool, err error) {
	b := d.Batch()
	defer b.rollback()
	id, out, err := b.Add(r)
	if err != nil {
		return 0, false, err
	}
	return id, out != Known, b.Commit()
}

// Packed is a run made ready to store: what takes CPU and no database
// (encoding, compression), so that a caller can do it for the next run
// while the last one is being written.
type Packed struct {
	r         *result.Bundle
	identity  string
	legacy    string // an older identity of the same run ("": none)
	runJSON   string
	endJSON   string
	status    string
	started   string
	file      string
	source    string
	resultsGz []byte
	added     string // when the run was added ("": now); Copy keeps the source's
}

// Pack prepares r for Batch.AddPacked.
func Pack(r *result.Bundle) (*Packed, error) {
	run := r.Run
	p := &Packed{r: r, source: result.RecordsFormat}
	p.identity, p.legacy = identities(run)
	b, err := json.Marshal(run)
	if err != nil {
		return nil, err
	}
	p.runJSON = string(b)
	if r.End != nil {
		b, err := json.Marshal(r.End)
		if err != nil {
			return nil, err
		}
		p.endJSON, p.status = string(b), r.End.Status
	}
	if !run.Start.IsZero() {
		p.started = stamp(run.Start)
	}
	if run.Source != nil {
		p.file, p.source = run.Source.File, run.Source.Format
	}
	if p.resultsGz, err = packResults(r.Results); err != nil {
		return nil, err
	}
	return p, nil
}

// packResults compresses result records, one JSON text per line.
func packResults(results []*result.Result) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	enc := result.NewEncoder(zw)
	for _, x := range results {
		if err := enc.Result(x); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Batch adds many runs in few transactions (one per batchRuns runs):
// much faster than one each, since every commit writes the pages it
// touched. An interruption loses the runs of the open transaction only.
type Batch struct {
	d     *DB
	tx    *sql.Tx
	n     int
	stmts map[string]*sql.Stmt // prepared in tx, by SQL text
}

const batchRuns = 256

// Batch starts adding runs; Commit ends it.
func (d *DB) Batch() *Batch { return &Batch{d: d} }

// Add stores a run and its results in the batch's transaction; a run
// already in the archive is left as it is, unless it was incomplete.
func (b *Batch) Add(r *result.Bundle) (id int64, out Outcome, err error) {
	p, err := Pack(r)
	if err != nil {
		return 0, Known, err
	}
	return b.AddPacked(p)
}

// Incomplete reports whether a packed run lacks its end: gomb's records
// of a job that is still running or was killed. Adding the complete
// records later replaces it.
func (p *Packed) Incomplete() bool { return p.source == result.RecordsFormat && p.r.End == nil }

// AddPacked is Add of a packed run. Nothing is stored until the batch
// commits (Pending is 0 again).
func (b *Batch) AddPacked(p *Packed) (id int64, out Outcome, err error) {
	if b.d.ReadOnly {
		return 0, Known, b.d.ReadOnlyError()
	}
	if b.tx == nil {
		if b.tx, err = b.d.beginWrite(); err != nil {
			return 0, Known, err
		}
		b.stmts = map[string]*sql.Stmt{}
	}
	if id, out, err = b.add(p); err != nil {
		b.rollback()
		return 0, Known, b.d.fail(err)
	}
	if b.n++; b.n >= batchRuns {
		return id, out, b.Commit()
	}
	return id, out, nil
}

// Pending is how many runs the batch holds that are not committed yet.
func (b *Batch) Pending() int { return b.n }

// Commit stores the runs added since the last commit.
func (b *Batch) Commit() error {
	if b.tx == nil {
		return nil
	}
	err := b.tx.Commit()
	b.tx, b.n, b.stmts = nil, 0, nil
	return b.d.fail(err)
}

func (b *Batch) rollback() {
	if b.tx != nil {
		b.tx.Rollback()
		b.tx, b.n, b.stmts = nil, 0, nil
	}
}

// stmt is query prepared once per transaction.
func (b *Batch) stmt(query string) (*sql.Stmt, error) {
	if s := b.stmts[query]; s != nil {
		return s, nil
	}
	s, err := b.tx.Prepare(b.d.d.rebind(query))
	if err != nil {
		return nil, err
	}
	b.stmts[query] = s
	return s, nil
}

func (b *Batch) exec(query string, args ...any) (sql.Result, error) {
	s, err := b.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

// add stores p unless the archive holds it. The run's identity is
// unique in the archive: a writer that raced another to the same run and
// lost finds the winner's row on its next look (INSERT ... ON CONFLICT DO
// NOTHING inserts nothing; PostgreSQL's waits for the other transaction
// to end first) and takes it as known; writers also take turns (immediate
// transactions in SQLite, beginWrite's lock in PostgreSQL), so that this
// is the rare path.
func (b *Batch) add(p *Packed) (id int64, out Outcome, err error) {
	for range 3 {
		id, out, done, err := b.addOnce(p)
		if err != nil || done {
			return id, out, err
		}
	}
	return 0, Known, fmt.Errorf("run %s: another writer kept adding it at the same moment", p.r.Run.RunID)
}

// addOnce is one look and one insert; done is false when another writer
// stored the same run between the two.
func (b *Batch) addOnce(p *Packed) (id int64, out Outcome, done bool, err error) {
	find, err := b.stmt(`SELECT id, identity, end_json, nresults FROM runs WHERE identity IN (?, ?)`)
	if err != nil {
		return 0, Known, false, err
	}
	var ident, end string
	var n int
	out = Added
	switch err := find.QueryRow(p.identity, p.legacy).Scan(&id, &ident, &end, &n); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return 0, Known, false, err
	case p.source != result.RecordsFormat || end != "" || p.Incomplete() && len(p.r.Results) <= n:
		if ident != p.identity { // stored by an older gomb: known by its digest from now on
			if _, err := b.exec(`UPDATE runs SET identity = ? WHERE id = ?`, p.identity, id); err != nil {
				return 0, Known, false, err
			}
		}
		return id, Known, true, nil
	default: // stored without its end, and this one has more
		if _, err := b.exec(`DELETE FROM runs WHERE id = ?`, id); err != nil {
			return 0, Known, false, err
		}
		out = Replaced
	}
	run, results := p.r.Run, p.r.Results
	added := p.added
	if added == "" {
		added = stampNow()
	}
	ins, err := b.stmt(`INSERT INTO runs (identity, run_id, suite, source, file, started, added, system, config, mpi,
		np, locality, nresults, status, run_json, end_json, results_gz) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (identity) DO NOTHING RETURNING id`)
	if err != nil {
		return 0, Known, false, err
	}
	err = ins.QueryRow(p.identity, run.RunID, run.Suite, p.source, p.file, p.started, added,
		run.Labels["system"], run.Labels["config"], run.MPIName(), run.WorldSize, result.CommonLocality(results),
		len(results), p.status, p.runJSON, p.endJSON, p.resultsGz).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, Known, false, nil // stored by another writer meanwhile: look again
	}
	if err != nil {
		return 0, Known, false, err
	}
	for k, v := range run.Labels {
		if _, err := b.exec(`INSERT INTO labels (run, key, value) VALUES (?,?,?)`, id, k, v); err != nil {
			return 0, Known, false, err
		}
	}
	// Many rows per statement, each statement prepared once: every call
	// through database/sql and cgo costs more than SQLite's work for a row.
	args := make([]any, 0, rowsPerInsert*13)
	for k := 0; k < len(results); {
		n := rowsPerInsert
		if len(results)-k < n {
			n = 1 // the rest one by one, with a statement prepared already
		}
		args = args[:0]
		for i, x := range results[k : k+n] {
			args = append(args, id, k+i, x.Benchmark, x.NP, x.Group, x.Bytes, x.Repetitions, x.Status,
				x.TMinUS, x.TMaxUS, x.TAvgUS, x.MBps, x.Locality)
		}
		if _, err := b.exec(insertResults(n), args...); err != nil {
			return 0, Known, false, err
		}
		k += n
	}
	return id, out, true, nil
}

const rowsPerInsert = 64

var insertSQL sync.Map

// insertResults is the INSERT of n result rows.
func insertResults(n int) string {
	if q, ok := insertSQL.Load(n); ok {
		return q.(string)
	}
	q := `INSERT INTO results (run, seq, benchmark, np, grp, bytes, repetitions, status,
		t_min_us, t_max_us, t_avg_us, mbps, locality) VALUES ` +
		strings.TrimSuffix(strings.Repeat("(?,?,?,?,?,?,?,?,?,?,?,?,?),", n), ",")
	insertSQL.Store(n, q)
	return q
}

// Remove deletes runs and everything they hold; it returns how many went.
func (d *DB) Remove(ids []int64) (int64, error) {
	if d.ReadOnly {
		return 0, d.ReadOnlyError()
	}
	tx, err := d.beginWrite()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n int64
	for _, id := range ids {
		res, err := tx.Exec(d.d.rebind(`DELETE FROM runs WHERE id = ?`), id)
		if err != nil {
			return 0, d.fail(err)
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, d.fail(tx.Commit())
}
