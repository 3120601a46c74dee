// Package archive keeps every measurement, gomb's or imported, in one
// database with two back ends behind one type (DB):
//
//   - an SQLite file (one user, one machine, or a shared file system with
//     one writer at a time): SQLite's C library in cgo builds
//     (driver_cgo.go) and a pure-Go driver (modernc.org/sqlite) without
//     cgo, so the analysis side builds with CGO_ENABLED=0 (sqlite.go;
//     sharedfs.go: the file systems where WAL is unsafe);
//   - a PostgreSQL database, named by a postgres:// URL (a centre's one
//     archive for many hosts and jobs), through the pure-Go pgx driver
//     (postgres.go), its tables in a schema of their own (default gomb).
//
// Both run the same SQL (dialect.go names the few words that differ and
// turns ? into $n for PostgreSQL), the same migrations (schema.go), the
// same dedupe rules (add.go) and selections (query.go). A run goes in with
// its results in one transaction; a run already there (same gomb run id,
// or same log content and position) is not added again, also when two
// writers race (a unique identity, INSERT ... ON CONFLICT DO NOTHING);
// concurrent writers wait for each other. Runs carry labels (system,
// config, MPI library, np, intra/inter-node, date, and the user's
// key=value) and are selected by them. Copy moves runs between archives.
package archive

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// timeLayout is fixed width, so that times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

// DB is an open archive.
type DB struct {
	db *sql.DB
	// Path names the archive: the SQLite file's path, or the PostgreSQL
	// URL without its password (what messages may show).
	Path string
	// ReadOnly: the archive answers queries and refuses to change: an
	// SQLite file on a file system mounted read-only, a PostgreSQL role
	// without the right to insert, or a server in read-only mode (a hot
	// standby).
	ReadOnly bool
	// Warning is a line for the user about where the archive is (an
	// SQLite file on a network file system); "" when none. Whoever opens
	// the archive prints it.
	Warning string
	d       *dialect
	role    string // PostgreSQL: the role connected as
	lock    string // PostgreSQL: the statement that takes the archive's lock (beginWrite)
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

// Resolve is the archive a command uses: path, or DefaultPath when path is
// "".
func Resolve(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	return DefaultPath()
}

// Open opens the archive name names, creating it if needed, and brings its
// schema up to date: a PostgreSQL archive for a postgres:// or
// postgresql:// URL (IsURL), else an SQLite file.
func Open(name string) (*DB, error) {
	if IsURL(name) {
		return openPostgres(name, true)
	}
	return openSQLite(name)
}

// ErrNoArchive is what OpenExisting returns where there is no archive.
var ErrNoArchive = errors.New("no archive")

// OpenExisting opens an archive that exists, for a command that reads
// (a reader never makes an archive: a mistyped -archive or GOMB_ARCHIVE
// is an error, not an empty archive). Where there is none, the error
// wraps ErrNoArchive.
func OpenExisting(name string) (*DB, error) {
	if IsURL(name) {
		return openPostgres(name, false)
	}
	if _, err := os.Stat(name); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s (gomb archive add makes one)", ErrNoArchive, name)
	}
	return openSQLite(name)
}

// ReadOnlyError is what a change to a read-only archive meets.
func (d *DB) ReadOnlyError() error {
	if d.d.postgres {
		return fmt.Errorf("archive %s: role %s may read this archive, not change it", d.Path, d.role)
	}
	return fmt.Errorf("archive %s is on a read-only file system: it can be read, not changed", d.Path)
}

// Close closes the archive.
func (d *DB) Close() error { return d.db.Close() }

// Verify runs the database's own integrity check (SQLite's; PostgreSQL
// has none to run from a client) and gomb's: every run holds as many
// results as it says. It returns the problems found.
func (d *DB) Verify() ([]string, error) {
	var problems []string
	if !d.d.postgres {
		rows, err := d.db.Query(`PRAGMA integrity_check`)
		if err != nil {
			return nil, d.fail(err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			if s != "ok" {
				problems = append(problems, s)
			}
		}
		rows.Close()
	}
	rows, err := d.query(`SELECT r.id, r.nresults, (SELECT count(*) FROM results x WHERE x.run = r.id) FROM runs r ORDER BY r.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, want, got int64
		if err := rows.Scan(&id, &want, &got); err != nil {
			return nil, d.fail(err)
		}
		if want != got {
			problems = append(problems, fmt.Sprintf("run %d holds %d results, not %d", id, got, want))
		}
	}
	return problems, d.fail(rows.Err())
}

// stampNow is the time a run is added.
func stampNow() string { return stamp(time.Now()) }
