//go:build cgo

package archive

import (
	_ "github.com/mattn/go-sqlite3" // database/sql driver "sqlite3"
)

// With cgo (the measuring build) the archive uses SQLite's own C library
// through mattn/go-sqlite3: nothing of it runs before it is used, where the
// pure-Go driver initialises a C runtime emulation at start-up that costs
// every rank of a measurement about 3.5 MB of resident memory.
const driverName = "sqlite3"

// dsn opens path with immediate write transactions, a one-minute busy
// timeout, WAL (or, with wal false, the rollback journal and FULL
// synchronisation: a network file system), foreign keys and NORMAL
// synchronisation, and without SQLite's own locking of the connection
// (database/sql hands it to one goroutine at a time; the locks cost two
// calls per SQLite call).
func dsn(path string, wal bool) string {
	mode := "_journal_mode=WAL&_synchronous=NORMAL"
	if !wal {
		mode = "_journal_mode=DELETE&_synchronous=FULL"
	}
	return "file:" + path + "?_txlock=immediate&_busy_timeout=60000&" + mode + "&_foreign_keys=1&_mutex=no"
}

// dsnReadOnly opens path read-only, as it is (no journal mode set);
// immutable for a file on a read-only file system.
func dsnReadOnly(path string, immutable bool) string {
	d := "file:" + path + "?mode=ro&_busy_timeout=60000"
	if immutable {
		d += "&immutable=1"
	}
	return d
}
