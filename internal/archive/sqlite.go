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

// The SQLite back end: one file. Writers take the lock when their
// transaction begins (immediate) and wait up to a minute for each other;
// on a local file system the journal is a WAL, so that readers go on
// meanwhile. On a network file system (sharedfs.go) WAL is unsafe (its
// index is shared memory, one host's): there the journal is the rollback
// journal, under the file system's own locks, and a file system without
// working locks is refused.

func openSQLite(path string) (*DB, error) {
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
	shared, err := checkSharedFS(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	return openSQLiteOn(path, shared)
}

// openSQLiteOn opens the archive at path, on the network file system
// shared ("": a local one).
func openSQLiteOn(path, shared string) (*DB, error) {
	// Another program's SQLite file is refused before anything writes to
	// it: opening it for gomb would turn it into a WAL database.
	if err := probe(path); err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	// SQLite does not wait while another process turns a new file into a
	// WAL database: it answers "database is locked" at once, and Open
	// tries again.
	deadline := time.Now().Add(openWait)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		d, err := openOnce(path, shared == "")
		if err == nil && shared != "" {
			d.Warning = sharedWarning(path, shared)
		}
		if err == nil || !locked(err) || time.Now().After(deadline) {
			return d, err
		}
		time.Sleep(wait)
	}
}

// openWait is how long Open tries again while another process holds a
// new archive's file as it makes it a WAL database.
const openWait = time.Minute

func openOnce(path string, wal bool) (*DB, error) {
	db, err := sql.Open(driverName, dsn(path, wal))
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	d := &DB{db: db, Path: path, d: sqliteDialect}
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
	d := &DB{db: db, Path: path, ReadOnly: true, d: sqliteDialect}
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

// locked reports whether err is SQLite's "database is locked", from
// either driver.
func locked(err error) bool { return strings.Contains(err.Error(), "database is locked") }

// sqliteText is SQLite's message for err, the same from both drivers (the
// pure-Go one appends the result code: "file is not a database (26)").
func sqliteText(err error) string {
	return errCode.ReplaceAllString(err.Error(), "")
}

var errCode = regexp.MustCompile(` \([0-9]+\)$`)
