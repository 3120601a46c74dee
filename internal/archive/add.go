package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/gomb-hpc/gomb/result"
)

// Adding runs: Pack (encoding, compression; no database) and Batch (many
// runs a transaction, statements prepared once).

// identity is what makes a run the same run twice.
func identity(r *result.Run) string {
	if r.Source != nil && r.Source.Format != result.RecordsFormat {
		return fmt.Sprintf("%s:%d", r.Source.Hash, r.Source.Index)
	}
	return r.RunID
}

// Add stores a run and its results in one transaction. A run already in
// the archive is left as it is: added is false and id is the stored run.
func (d *DB) Add(r *result.Bundle) (id int64, added bool, err error) {
	b := d.Batch()
	defer b.rollback()
	if id, added, err = b.Add(r); err != nil {
		return 0, false, err
	}
	return id, added, b.Commit()
}

// Packed is a run made ready to store: what takes CPU and no database
// (encoding, compression), so that a caller can do it for the next run
// while the last one is being written.
type Packed struct {
	r         *result.Bundle
	identity  string
	runJSON   string
	endJSON   string
	status    string
	started   string
	file      string
	source    string
	resultsGz []byte
}

// Pack prepares r for Batch.AddPacked.
func Pack(r *result.Bundle) (*Packed, error) {
	run := r.Run
	p := &Packed{r: r, identity: identity(run), source: result.RecordsFormat}
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
// already in the archive is left as it is.
func (b *Batch) Add(r *result.Bundle) (id int64, added bool, err error) {
	p, err := Pack(r)
	if err != nil {
		return 0, false, err
	}
	return b.AddPacked(p)
}

// AddPacked is Add of a packed run.
func (b *Batch) AddPacked(p *Packed) (id int64, added bool, err error) {
	if b.tx == nil {
		if b.tx, err = b.d.db.Begin(); err != nil {
			return 0, false, err
		}
		b.stmts = map[string]*sql.Stmt{}
	}
	if id, added, err = b.add(p); err != nil {
		b.rollback()
		return 0, false, err
	}
	if b.n++; b.n >= batchRuns {
		return id, added, b.Commit()
	}
	return id, added, nil
}

// Commit stores the runs added since the last commit.
func (b *Batch) Commit() error {
	if b.tx == nil {
		return nil
	}
	err := b.tx.Commit()
	b.tx, b.n, b.stmts = nil, 0, nil
	return err
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
	s, err := b.tx.Prepare(query)
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

func (b *Batch) add(p *Packed) (id int64, added bool, err error) {
	find, err := b.stmt(`SELECT id FROM runs WHERE identity = ?`)
	if err != nil {
		return 0, false, err
	}
	if err := find.QueryRow(p.identity).Scan(&id); err == nil {
		return id, false, nil
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	run, results := p.r.Run, p.r.Results
	res, err := b.exec(`INSERT INTO runs (identity, run_id, suite, source, file, started, added, system, config, mpi,
		np, locality, nresults, status, run_json, end_json, results_gz) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.identity, run.RunID, run.Suite, p.source, p.file, p.started, stamp(time.Now()),
		run.Labels["system"], run.Labels["config"], run.MPIName(), run.WorldSize, result.CommonLocality(results),
		len(results), p.status, p.runJSON, p.endJSON, p.resultsGz)
	if err != nil {
		return 0, false, err
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, false, err
	}
	for k, v := range run.Labels {
		if _, err := b.exec(`INSERT INTO labels (run, key, value) VALUES (?,?,?)`, id, k, v); err != nil {
			return 0, false, err
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
			return 0, false, err
		}
		k += n
	}
	return id, true, nil
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
	tx, err := d.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n int64
	for _, id := range ids {
		res, err := tx.Exec(`DELETE FROM runs WHERE id = ?`, id)
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, tx.Commit()
}
