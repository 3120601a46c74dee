package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestParseURL: gomb's schema parameter, the password kept out of what is
// shown, and refused on a command line.
func TestParseURL(t *testing.T) {
	t.Setenv("GOMB_ARCHIVE_SCHEMA", "")
	cases := []struct {
		url, schema, shown string
		password           bool
	}{
		{"postgres://db.example/gomb", "gomb", "postgres://db.example/gomb", false},
		{"postgresql://ann@db.example:5433/perf?sslmode=verify-full&schema=hpc", "hpc",
			"postgresql://ann@db.example:5433/perf?sslmode=verify-full&schema=hpc", false},
		{"postgres://ann:s3cret@db.example/perf", "gomb", "postgres://ann@db.example/perf", true},
		{"postgres://ann@db.example/perf?password=s3cret&schema=x", "x", "postgres://ann@db.example/perf?schema=x", true},
		{"postgres:///perf?host=/run/pg", "gomb", "postgres:///perf?host=/run/pg", false},
	}
	for _, c := range cases {
		tg, err := parseURL(c.url)
		if err != nil || tg.schema != c.schema || tg.shown != c.shown || strings.Contains(tg.conn, "schema=") {
			t.Errorf("%s: %+v %v, want schema %s shown %s", c.url, tg, err, c.schema, c.shown)
		}
		if HasPassword(c.url) != c.password {
			t.Errorf("%s: password %v", c.url, !c.password)
		}
		err = CheckArgs([]string{"archive", "-archive=" + c.url, "list"})
		if (err != nil) != c.password || err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: CheckArgs %v", c.url, err)
		}
	}
	t.Setenv("GOMB_ARCHIVE_SCHEMA", "site_perf")
	if tg, _ := parseURL("postgres://h/db"); tg.schema != "site_perf" {
		t.Errorf("GOMB_ARCHIVE_SCHEMA: schema %s", tg.schema)
	}
	if tg, _ := parseURL("postgres://h/db?schema=mine"); tg.schema != "mine" {
		t.Errorf("the URL's schema before the environment's: %s", tg.schema)
	}
	for _, bad := range []string{"postgres://h/db?schema=Bad-Name", "postgres://h/db?schema=1x", "postgres://h/db?schema=a%22b"} {
		if _, err := parseURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	for _, name := range []string{"a.db", "/data/postgres/archive.db", "POSTGRES://h/d"} {
		if IsURL(name) != strings.HasPrefix(strings.ToLower(name), "postgres://") {
			t.Errorf("IsURL(%s)", name)
		}
	}
}

// TestPostgresRoles: the libpq ways to a password (a password file, the
// environment), a read-only role that queries and is refused writes with
// one line, and no password in any message.
func TestPostgresRoles(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: in the whole suite")
	}
	s := pgtest.Shared(t)
	schema := s.NewSchema("roles")
	if err := s.Exec("postgres", `CREATE ROLE t_writer LOGIN PASSWORD 'w-s3cret';
		CREATE ROLE t_reader LOGIN PASSWORD 'r-s3cret';
		CREATE SCHEMA `+schema+` AUTHORIZATION t_writer;
		GRANT USAGE ON SCHEMA `+schema+` TO t_reader;
		ALTER DEFAULT PRIVILEGES FOR ROLE t_writer IN SCHEMA `+schema+` GRANT SELECT ON TABLES TO t_reader`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Exec("postgres", `DROP SCHEMA `+schema+` CASCADE; DROP ROLE t_writer; DROP ROLE t_reader`)
	})
	// the writer's password from a password file (~/.pgpass's format)
	pass := filepath.Join(t.TempDir(), "pgpass")
	if err := os.WriteFile(pass, []byte("*:*:*:t_writer:w-s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGPASSFILE", pass)
	writer := s.URL("postgres", "t_writer", "schema="+schema)
	w := openAt(t, writer)
	if w.ReadOnly {
		t.Fatal("the owner's archive is read-only")
	}
	for i := range 3 {
		if _, _, err := w.Add(synth(i, 4)); err != nil {
			t.Fatal(err)
		}
	}
	// the reader's from the environment
	t.Setenv("PGPASSWORD", "r-s3cret")
	reader := s.URL("postgres", "t_reader", "schema="+schema)
	r := openAt(t, reader)
	if !r.ReadOnly {
		t.Error("the reader's archive is not read-only")
	}
	if runs, err := r.List(Selector{}); err != nil || len(runs) != 3 {
		t.Errorf("reader's list: %d runs, %v", len(runs), err)
	}
	if pts, err := r.History(Selector{}, "PingPong", 2, 0, "t_avg_us"); err != nil || len(pts) != 3 {
		t.Errorf("reader's history: %d points, %v", len(pts), err)
	}
	for what, err := range map[string]error{
		"add":    third(r.Add(synth(9, 4))),
		"remove": second(r.Remove([]int64{1})),
	} {
		if err == nil || !strings.Contains(err.Error(), "role t_reader may read this archive, not change it") ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("reader's %s: %v", what, err)
		}
	}
	// a write the privilege check did not foresee (the server refusing
	// it) is said the same way
	r.ReadOnly = false
	if _, _, err := r.Add(synth(9, 4)); err == nil || !strings.Contains(err.Error(), "role t_reader may not change this archive") {
		t.Errorf("reader's add, the server refusing: %v", err)
	}
	// a wrong password, and a missing archive for a reader
	t.Setenv("PGPASSWORD", "wr0ng-s3cret")
	if _, err := Open(reader); err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "\n") {
		t.Errorf("wrong password: %v", err)
	}
	t.Setenv("PGPASSWORD", "r-s3cret")
	if _, err := OpenExisting(s.URL("postgres", "t_reader", "schema=nothere")); !errors.Is(err, ErrNoArchive) {
		t.Errorf("a missing schema: %v", err)
	}
}

// second and third are the error of a call's results.
func second[T any](_ T, err error) error { return err }

func third[T, U any](_ T, _ U, err error) error { return err }

// TestPostgresSchemas: two archives in one database, each in its schema;
// a schema of another program's, and a newer gomb's archive, refused.
func TestPostgresSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: in the whole suite")
	}
	s := pgtest.Shared(t)
	a, b := openAt(t, pgArchive(t)), openAt(t, pgArchive(t))
	a.Add(synth(1, 2))
	if runs, _ := b.List(Selector{}); len(runs) != 0 {
		t.Errorf("schema b sees %d runs of schema a", len(runs))
	}
	other, newer := s.NewSchema("other"), s.NewSchema("newer")
	if err := s.Exec("postgres", `CREATE SCHEMA `+other+`; CREATE TABLE `+other+`.t (x int)`); err != nil {
		t.Fatal(err)
	}
	nb := openAt(t, s.URL("postgres", pgtest.Superuser, "schema="+newer))
	nb.Close()
	if err := s.Exec("postgres", `UPDATE `+newer+`.schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	for schema, want := range map[string]string{other: "not a gomb archive (schema " + other + " holds other tables", newer: "made by a newer gomb (schema 99"} {
		if _, err := Open(s.URL("postgres", pgtest.Superuser, "schema="+schema)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", schema, err, want)
		}
	}
	if v, err := a.Version(); err != nil || v != len(migrations) || len(pgMigrations) != len(migrations) {
		t.Errorf("version %d %v; %d migrations for PostgreSQL, %d for SQLite", v, err, len(pgMigrations), len(migrations))
	}
}

// TestPostgresStopMidWrite: the server stopped as by a crash (pg_ctl stop
// -m immediate) while a writer adds runs: the writer exits non-zero with
// one line, soon; after the restart the archive holds whole runs only,
// and takes more.
func TestPostgresStopMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: in the whole suite")
	}
	pgtest.Require(t)
	s, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Remove()
	name := s.URL("postgres", pgtest.Superuser, "")
	openAt(t, name).Close()
	cmd := writerCmd(t, name, 0, 100000)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	stopped := time.Now()
	if err := s.StopImmediate(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the writer still ran 30 s after the server stopped")
	}
	msg := strings.TrimSpace(stderr.String())
	t.Logf("writer: %v after %v: %s", err, time.Since(stopped).Round(time.Millisecond), msg)
	if err == nil || strings.Count(msg, "\n") > 0 || !strings.HasPrefix(msg, "archive postgres://") {
		t.Errorf("writer: %v, stderr %q: want a failure and one line", err, msg)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	db := openAt(t, name)
	mustCheck(t, db)
	runs := count(t, db, `SELECT count(*) FROM runs`)
	if results := count(t, db, `SELECT count(*) FROM results`); runs == 0 || results != runs*64 {
		t.Errorf("%d results in %d runs", results, runs)
	}
	t.Logf("%d whole runs stored before the stop", runs)
	if _, added, err := db.Add(synth(999999, 64)); err != nil || !added {
		t.Errorf("add after the restart: %v", err)
	}
}

// TestDocSQL: docs/import-archive.md's SQL, run as it says: its setup
// (roles, schema) as the superuser in a database of its own, runs added
// as the writer role, and each example query as the reader role, which
// must answer with rows.
func TestDocSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: in the whole suite")
	}
	s := pgtest.Shared(t)
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "import-archive.md"))
	if err != nil {
		t.Fatal(err)
	}
	var setup, queries []string
	for _, block := range strings.Split(string(doc), "```sql\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		switch {
		case strings.HasPrefix(block, "-- setup"):
			setup = append(setup, block)
		case strings.HasPrefix(block, "-- query"):
			queries = append(queries, block)
		default:
			t.Errorf("an SQL block that is neither -- setup nor -- query:\n%s", block)
		}
	}
	if len(setup) == 0 || len(queries) < 2 {
		t.Fatalf("%d setup blocks, %d queries", len(setup), len(queries))
	}
	if err := s.Exec("postgres", `CREATE DATABASE docs`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, q := range []string{`DROP DATABASE docs WITH (FORCE)`, `DROP ROLE gomb_writer`, `DROP ROLE gomb_reader`} {
			if err := s.Exec("postgres", q); err != nil {
				t.Error(err)
			}
		}
	})
	for _, b := range setup {
		if err := s.Exec("docs", b); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
	}
	if err := s.Exec("docs", `ALTER ROLE gomb_writer PASSWORD 'w-pass'; ALTER ROLE gomb_reader PASSWORD 'r-pass'`); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMB_ARCHIVE_SCHEMA", "")
	t.Setenv("PGPASSWORD", "w-pass")
	w := openAt(t, s.URL("docs", "gomb_writer", ""))
	for _, r := range importFile(t, "imb_np2_p2p_coll.txt", importer.Options{Labels: map[string]string{"system": "hpc4"}}).Runs {
		if _, _, err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	r := synth(3, 6)
	r.Run.Labels["fw"] = "2.1"
	if _, _, err := w.Add(r); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Setenv("PGPASSWORD", "r-pass")
	c, err := pgx.Connect(ctx, s.URL("docs", "gomb_reader", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range queries {
		rows, err := c.Query(ctx, q)
		if err != nil {
			t.Errorf("%v\n%s", err, q)
			continue
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil || n == 0 {
			t.Errorf("%d rows, %v:\n%s", n, err, q)
		}
	}
}
