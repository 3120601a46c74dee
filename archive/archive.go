// Package archive keeps every measurement, gomb's or imported, in one
// SQLite file: through SQLite's C library in cgo builds (driver_cgo.go) and
// a pure-Go driver (modernc.org/sqlite) without cgo, so the analysis side
// builds with CGO_ENABLED=0.
//
// A run goes in with its results in one transaction; a run already there
// (same gomb run id, or same log content and position) is not added again;
// concurrent writers wait for each other (WAL journal, busy timeout); the
// schema is versioned with PRAGMA user_version and migrated in order. Runs
// carry labels (system, config, MPI library, np, intra/inter-node, date,
// and the user's key=value) and are selected by them.
package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/gomb-hpc/gomb/result"
)

// migrations are applied in order; user_version is how many are in place.
var migrations = []string{
	`CREATE TABLE runs (
		id        INTEGER PRIMARY KEY AUTOINCREMENT,
		identity  TEXT NOT NULL UNIQUE, -- gomb run id, or sha256 of the log and the run's index in it
		run_id    TEXT NOT NULL,
		suite     TEXT NOT NULL,
		source    TEXT NOT NULL,        -- gomb, imb, osu, ring
		file      TEXT NOT NULL DEFAULT '',
		started   TEXT NOT NULL DEFAULT '', -- RFC 3339, UTC; '' when the log does not say
		added     TEXT NOT NULL,
		system    TEXT NOT NULL DEFAULT '',
		config    TEXT NOT NULL DEFAULT '',
		mpi       TEXT NOT NULL DEFAULT '',
		np        INTEGER NOT NULL DEFAULT 0,
		locality  TEXT NOT NULL DEFAULT '',
		nresults  INTEGER NOT NULL,
		status    TEXT NOT NULL DEFAULT '',
		run_json  TEXT NOT NULL,
		end_json  TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE labels (
		run   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		key   TEXT NOT NULL,
		value TEXT NOT NULL,
		PRIMARY KEY (run, key)
	);
	CREATE TABLE results (
		run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq         INTEGER NOT NULL,
		benchmark   TEXT NOT NULL,
		np          INTEGER NOT NULL,
		grp         INTEGER NOT NULL,
		bytes       INTEGER NOT NULL,
		repetitions INTEGER NOT NULL,
		status      TEXT NOT NULL,
		t_min_us    REAL NOT NULL,
		t_max_us    REAL NOT NULL,
		t_avg_us    REAL NOT NULL,
		mbps        REAL NOT NULL,
		locality    TEXT NOT NULL DEFAULT '',
		result_json TEXT NOT NULL,
		PRIMARY KEY (run, seq)
	);
	CREATE INDEX results_lookup ON results (benchmark, bytes, np);
	CREATE INDEX runs_started ON runs (started);
	CREATE INDEX runs_system ON runs (system, config);`,
	// 2: history looks benchmarks up without regard to case
	`DROP INDEX results_lookup;
	CREATE INDEX results_metric ON results (benchmark COLLATE NOCASE, bytes, np);`,
	// 3: a run's whole result records go, compressed, into the run's row
	// (packStoredResults); the results table keeps what queries need.
	`ALTER TABLE runs ADD COLUMN results_gz BLOB;`,
	// 4: ... and loses its copy of them; its rows live in the primary key.
	`CREATE TABLE results_new (
		run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq         INTEGER NOT NULL,
		benchmark   TEXT NOT NULL,
		np          INTEGER NOT NULL,
		grp         INTEGER NOT NULL,
		bytes       INTEGER NOT NULL,
		repetitions INTEGER NOT NULL,
		status      TEXT NOT NULL,
		t_min_us    REAL NOT NULL,
		t_max_us    REAL NOT NULL,
		t_avg_us    REAL NOT NULL,
		mbps        REAL NOT NULL,
		locality    TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (run, seq)
	) WITHOUT ROWID;
	INSERT INTO results_new SELECT run, seq, benchmark, np, grp, bytes, repetitions, status,
		t_min_us, t_max_us, t_avg_us, mbps, locality FROM results;
	DROP TABLE results;
	ALTER TABLE results_new RENAME TO results;
	CREATE INDEX results_metric ON results (benchmark COLLATE NOCASE, bytes, np);`,
	// 5: ... and are kept in the order History looks them up in, run first:
	// a new run's rows go at the end of the table. An index by benchmark
	// took new rows all over it, so that every commit rewrote most of its
	// pages (a 32 MB log set wrote 1.3 GB of WAL).
	`CREATE TABLE results_new (
		run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq         INTEGER NOT NULL,
		benchmark   TEXT NOT NULL COLLATE NOCASE,
		np          INTEGER NOT NULL,
		grp         INTEGER NOT NULL,
		bytes       INTEGER NOT NULL,
		repetitions INTEGER NOT NULL,
		status      TEXT NOT NULL,
		t_min_us    REAL NOT NULL,
		t_max_us    REAL NOT NULL,
		t_avg_us    REAL NOT NULL,
		mbps        REAL NOT NULL,
		locality    TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (run, benchmark, bytes, np, seq)
	) WITHOUT ROWID;
	INSERT INTO results_new SELECT run, seq, benchmark, np, grp, bytes, repetitions, status,
		t_min_us, t_max_us, t_avg_us, mbps, locality FROM results;
	DROP TABLE results;
	ALTER TABLE results_new RENAME TO results;`,
}

// goSteps run after the SQL of the migration of the same index, in its
// transaction: what SQL alone cannot do.
var goSteps = map[int]func(*sql.Tx) error{2: packStoredResults}

// packStoredResults moves each run's result_json rows into its results_gz.
func packStoredResults(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT id FROM runs`)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		var lines [][]byte
		rows, err := tx.Query(`SELECT result_json FROM results WHERE run = ? ORDER BY seq`, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var b []byte
			if err := rows.Scan(&b); err != nil {
				rows.Close()
				return err
			}
			lines = append(lines, b)
		}
		rows.Close()
		gz, err := packLines(lines)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE runs SET results_gz = ? WHERE id = ?`, gz, id); err != nil {
			return err
		}
	}
	return nil
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

// packLines compresses JSON records, one per line.
func packLines(lines [][]byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer) // a new one allocates a megabyte
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	for _, l := range lines {
		zw.Write(l)
		zw.Write([]byte{'\n'})
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// timeLayout is fixed width, so that times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

// DB is an open archive.
type DB struct {
	db   *sql.DB
	Path string
}

// DefaultPath is $GOMB_ARCHIVE, or archive.db in gomb's directory under
// the user's data directory ($XDG_DATA_HOME, else ~/.local/share).
func DefaultPath() (string, error) {
	if p := os.Getenv("GOMB_ARCHIVE"); p != "" {
		return p, nil
	}
	dir := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(dir) { // the XDG spec: a relative path is invalid and ignored
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no archive path: %w (use -archive PATH)", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "gomb", "archive.db"), nil
}

// Open opens (creating it if needed) the archive at path and brings its
// schema up to date.
func Open(path string) (*DB, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("archive %s: is a directory, not an archive file", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("archive %s: '?' and '#' cannot be in the path", path)
	}
	// Writers take the lock when their transaction begins (immediate) and
	// wait up to a minute for each other; WAL lets readers go on meanwhile.
	db, err := sql.Open(driverName, dsn(path))
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	d := &DB{db: db, Path: path}
	if err := d.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	return d, nil
}

// Close closes the archive.
func (d *DB) Close() error { return d.db.Close() }

// Version is the schema version of the archive.
func (d *DB) Version() (int, error) {
	var v int
	err := d.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	return v, err
}

// sqliteText is SQLite's message for err, the same from both drivers (the
// pure-Go one appends the result code: "file is not a database (26)").
func sqliteText(err error) string {
	return errCode.ReplaceAllString(err.Error(), "")
}

var errCode = regexp.MustCompile(` \([0-9]+\)$`)

func (d *DB) migrate() error {
	v, err := d.Version()
	if err != nil {
		return fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
	}
	if v > len(migrations) {
		return fmt.Errorf("made by a newer gomb (schema %d, this gomb knows %d)", v, len(migrations))
	}
	// Each step reads the version again inside its write transaction (which
	// takes the lock as it begins): another gomb creating the same new
	// archive at the same moment has done the step already, or waits.
	for v < len(migrations) {
		tx, err := d.db.Begin()
		if err != nil {
			return fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
		}
		if v, err = d.step(tx); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// step applies the next migration, if any, in tx; v is the schema version
// it leaves.
func (d *DB) step(tx *sql.Tx) (v int, err error) {
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
	}
	if v >= len(migrations) {
		return v, nil
	}
	if v == 0 {
		// A file that is not empty and not ours is left alone.
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
			return 0, fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
		}
		if n > 0 {
			return 0, errors.New("not a gomb archive (an SQLite file with other tables)")
		}
	}
	if _, err := tx.Exec(migrations[v]); err != nil {
		return 0, fmt.Errorf("migration %d: %w", v+1, err)
	}
	if step := goSteps[v]; step != nil {
		if err := step(tx); err != nil {
			return 0, fmt.Errorf("migration %d: %w", v+1, err)
		}
	}
	_, err = tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, v+1))
	return v + 1, err
}

// Verify runs SQLite's integrity check and gomb's: every run holds as many
// results as it says. It returns the problems found.
func (d *DB) Verify() ([]string, error) {
	var problems []string
	rows, err := d.db.Query(`PRAGMA integrity_check`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	rows.Close()
	rows, err = d.db.Query(`SELECT r.id, r.nresults, (SELECT count(*) FROM results x WHERE x.run = r.id) FROM runs r`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, want, got int64
		if err := rows.Scan(&id, &want, &got); err != nil {
			return nil, err
		}
		if want != got {
			problems = append(problems, fmt.Sprintf("run %d holds %d results, not %d", id, got, want))
		}
	}
	return problems, rows.Err()
}

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

const rowsPerInsert = 64 // 13 × 64 parameters, within SQLite's 999 of old builds

var insertSQL sync.Map // rows → statement

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
