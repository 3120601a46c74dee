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
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// timeLayout is fixed width, so that times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

// DB is an open archive.
type DB struct {
	db   *sql.DB
	Path string
	// ReadOnly: the archive is on a file system gomb cannot write (a
	// read-only mount); it answers queries, and refuses to change.
	ReadOnly bool
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

// Open opens (creating it if needed) the archive at path and brings its
// schema up to date.
func Open(path string) (*DB, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("archive %s: is a directory, not an archive file", path)
	} else if err == nil && !st.Mode().IsRegular() {
		// SQLite would write its journal beside it (/dev/null-journal)
		return nil, fmt.Errorf("archive %s: not a regular file (an archive is an SQLite file)", path)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("archive %s: '?' and '#' cannot be in the path", path)
	}
	if readOnlyFS(path) {
		return openReadOnly(path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	// Another program's SQLite file is refused before anything writes to
	// it: opening it for gomb would turn it into a WAL database.
	if err := probe(path); err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	// Writers take the lock when their transaction begins (immediate) and
	// wait up to a minute for each other; WAL lets readers go on meanwhile.
	// SQLite does not wait, though, while another process turns a new file
	// into a WAL database: it answers "database is locked" at once, and
	// Open tries again.
	deadline := time.Now().Add(openWait)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		d, err := openOnce(path)
		if err == nil || !locked(err) || time.Now().After(deadline) {
			return d, err
		}
		time.Sleep(wait)
	}
}

// openWait is how long Open tries again while another process holds a
// new archive's file as it makes it a WAL database.
const openWait = time.Minute

func openOnce(path string) (*DB, error) {
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

// readOnlyFS reports whether path (an existing file) is on a file system
// mounted read-only.
func readOnlyFS(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	return errors.Is(unix.Access(filepath.Dir(path), unix.W_OK), unix.EROFS)
}

// openReadOnly opens an archive on a read-only file system: immutable, as
// SQLite then takes no lock and needs no WAL index file (which it could
// not create there). Its schema must be this gomb's: there is no
// migrating it.
func openReadOnly(path string) (*DB, error) {
	db, err := sql.Open(driverName, dsnReadOnly(path, true))
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	d := &DB{db: db, Path: path, ReadOnly: true}
	v, err := d.Version()
	switch {
	case err != nil:
		err = fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
	case v == 0:
		err = errors.New("not a gomb archive")
	case v != len(migrations):
		err = fmt.Errorf("on a read-only file system and of schema %d, which this gomb (schema %d) would have to migrate", v, len(migrations))
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	return d, nil
}

// probe looks into an existing file without writing to it: an SQLite file
// with tables of another program's, a newer gomb's archive or a file that
// is no SQLite database is refused before Open makes it a WAL database.
func probe(path string) error {
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		return nil // a new archive
	}
	db, err := sql.Open(driverName, dsnReadOnly(path, false))
	if err != nil {
		return err
	}
	defer db.Close()
	// One statement, so one snapshot: read apart, another gomb could
	// commit the first migration between the two and its tables would be
	// seen beside a version still 0.
	var v, n int
	err = db.QueryRow(`SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_master)`).Scan(&v, &n)
	if err != nil {
		if locked(err) {
			return nil // another gomb is making it: Open waits
		}
		return fmt.Errorf("not an SQLite archive: %s", sqliteText(err))
	}
	switch {
	case v == 0 && n > 0:
		return errors.New("not a gomb archive (an SQLite file with other tables)")
	case v > len(migrations):
		return fmt.Errorf("made by a newer gomb (schema %d, this gomb knows %d)", v, len(migrations))
	}
	return nil
}

// errReadOnly is what a change to a read-only archive meets.
func (d *DB) errReadOnly() error {
	return fmt.Errorf("archive %s is on a read-only file system: it can be read, not changed", d.Path)
}

// locked reports whether err is SQLite's "database is locked", from
// either driver.
func locked(err error) bool { return strings.Contains(err.Error(), "database is locked") }

// Close closes the archive.
func (d *DB) Close() error { return d.db.Close() }

// sqliteText is SQLite's message for err, the same from both drivers (the
// pure-Go one appends the result code: "file is not a database (26)").
func sqliteText(err error) string {
	return errCode.ReplaceAllString(err.Error(), "")
}

var errCode = regexp.MustCompile(` \([0-9]+\)$`)

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

// 13 × 64 parameters, within SQLite's 999 of old builds

// rows → statement
