package archive

import (
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// dialect is what differs between the back ends' SQL. Queries are written
// once, with ? placeholders (SQLite's); PostgreSQL's driver takes $1, $2,
// ..., which rebind writes. Everything else is the SQL both accept.
type dialect struct {
	postgres bool
	// contains is the condition that column %s holds the text of a
	// parameter.
	contains string
	// benchEq is the condition that results x are of the benchmark a
	// parameter names, without regard to case (SQLite's column is
	// COLLATE NOCASE; PostgreSQL's index is on lower(benchmark)).
	benchEq string
	rebound sync.Map // query → rebound query
}

var (
	sqliteDialect = &dialect{contains: "instr(%s, ?) > 0", benchEq: "x.benchmark = ? COLLATE NOCASE"}
	pgDialect     = &dialect{postgres: true, contains: "strpos(%s, ?) > 0", benchEq: "lower(x.benchmark) = lower(?)"}
)

// rebind turns the ? placeholders of q into the dialect's. The queries
// hold no ? in a string literal or a comment.
func (d *dialect) rebind(q string) string {
	if !d.postgres {
		return q
	}
	if r, ok := d.rebound.Load(q); ok {
		return r.(string)
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	r := b.String()
	d.rebound.Store(q, r)
	return r
}

// query, queryRow and exec run SQL written with ? placeholders.
func (d *DB) query(q string, args ...any) (*sql.Rows, error) {
	rows, err := d.db.Query(d.d.rebind(q), args...)
	return rows, d.fail(err)
}

func (d *DB) queryRow(q string, args ...any) *sql.Row {
	return d.db.QueryRow(d.d.rebind(q), args...)
}

// fail is err as the user reads it: a PostgreSQL refusal to write said as
// the read-only archive's; nil for nil.
func (d *DB) fail(err error) error {
	if err == nil || !d.d.postgres {
		return err
	}
	return d.pgFail(err)
}
