package archive

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// The archive's schema: its migrations, in order, and the steps SQL alone
// cannot do.

// migrations are SQLite's, applied in order; user_version is how many are
// in place. pgMigrations (postgres.go) are PostgreSQL's, one for each.
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

// Version is the schema version of the archive.
func (d *DB) Version() (int, error) {
	if d.d.postgres {
		return d.pgVersion()
	}
	var v int
	err := d.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	return v, err
}

// beginWrite begins a transaction that writes. SQLite's take the
// database's lock as they begin (immediate); PostgreSQL's take the
// archive's advisory lock, so that writers take turns there too: two
// batches of runs can then never wait for each other's rows in opposite
// orders (a deadlock, which PostgreSQL would end by failing one).
func (d *DB) beginWrite() (*sql.Tx, error) {
	tx, err := d.db.Begin()
	if err != nil || !d.d.postgres {
		return tx, d.fail(err)
	}
	if _, err := tx.Exec(d.lock); err != nil {
		tx.Rollback()
		return nil, d.fail(err)
	}
	return tx, nil
}

// migrate brings an SQLite archive's schema up to date.
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
