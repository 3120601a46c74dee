package archive

import (
	"path/filepath"
	"testing"

	"github.com/gomb-hpc/gomb/internal/pgtest"
)

// backend is one of the archive's back ends, as the tests that hold for
// both run them (restic's backend conformance suite: one table, every
// test against each).
type backend struct {
	name string
	// new is a new, empty archive's name: an SQLite file's path, or a
	// PostgreSQL URL with a schema of its own on the test server.
	new func(t testing.TB) string
}

// backends are SQLite and, outside -short's tier, PostgreSQL (a real
// server, pgtest's).
func backends(t testing.TB) []backend {
	bs := []backend{{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "sub", "a.db") }}}
	if !testing.Short() {
		bs = append(bs, backend{"postgres", func(t testing.TB) string { return pgArchive(t) }})
	}
	return bs
}

// pgArchive is a new PostgreSQL archive's URL: a schema of its own, as
// the superuser.
func pgArchive(t testing.TB) string {
	t.Helper()
	s := pgtest.Shared(t)
	return s.URL("postgres", pgtest.Superuser, "schema="+s.NewSchema("t"))
}

// eachBackend runs f against each back end, as a subtest named for it.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

// open opens a new archive of the back end.
func (b backend) open(t testing.TB) *DB {
	t.Helper()
	return openAt(t, b.new(t))
}
