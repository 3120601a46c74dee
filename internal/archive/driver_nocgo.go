//go:build !cgo

package archive

import (
	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// Without cgo (the analysis build for laptops) the archive uses the pure-Go
// SQLite (modernc.org/sqlite); both drivers read and write the same files.
const driverName = "sqlite"

// dsn: as driver_cgo.go's, in modernc's spelling.
func dsn(path string, wal bool) string {
	mode := "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	if !wal {
		mode = "&_pragma=journal_mode(DELETE)&_pragma=synchronous(FULL)"
	}
	return "file:" + path + "?_txlock=immediate&_pragma=busy_timeout(60000)" + mode + "&_pragma=foreign_keys(1)"
}

// dsnReadOnly: as driver_cgo.go's, in modernc's spelling.
func dsnReadOnly(path string, immutable bool) string {
	d := "file:" + path + "?mode=ro&_pragma=busy_timeout(60000)"
	if immutable {
		d += "&immutable=1"
	}
	return d
}
