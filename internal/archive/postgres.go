package archive

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The PostgreSQL back end: a centre's one archive for many hosts and
// jobs. The URL is libpq's (postgres://USER@HOST:PORT/DB?sslmode=...), and
// what it leaves out comes from the same places as libpq's: PGHOST,
// PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, ~/.pgpass (or
// PGPASSFILE), the service file (pgx's pgconn.ParseConfig reads them).
// gomb adds one parameter of its own, schema=NAME (else
// $GOMB_ARCHIVE_SCHEMA, else gomb): the PostgreSQL schema the archive's
// tables live in, so that it can share a database with others.

// IsURL reports whether name is a PostgreSQL archive's URL.
func IsURL(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// DefaultSchema is the PostgreSQL schema of an archive whose URL and
// environment name none.
const DefaultSchema = "gomb"

// schemaName is what a schema may be called: a plain identifier, so that
// it reads the same quoted or not, and in every SQL client.
var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// pgTarget is what a PostgreSQL archive's URL says, read.
type pgTarget struct {
	conn   string // the URL for pgx, without gomb's schema parameter
	schema string
	shown  string // the URL without its password: what messages show
}

// parseURL reads a PostgreSQL archive's URL.
func parseURL(name string) (pgTarget, error) {
	u, err := url.Parse(name)
	if err != nil {
		// url's error repeats the whole URL, password and all
		return pgTarget{}, fmt.Errorf("archive %s: not a URL", redact(name))
	}
	q := u.Query()
	t := pgTarget{schema: q.Get("schema")}
	if t.schema == "" {
		t.schema = os.Getenv("GOMB_ARCHIVE_SCHEMA")
	}
	if t.schema == "" {
		t.schema = DefaultSchema
	}
	q.Del("schema")
	u.RawQuery = q.Encode()
	t.conn = u.String()
	t.shown = redact(name)
	if !schemaName.MatchString(t.schema) {
		return t, fmt.Errorf("archive %s: schema %q: want lower-case letters, digits and _ (at most 63, not a digit first)", t.shown, t.schema)
	}
	return t, nil
}

// redact is a URL without its password (in the user part or a password
// parameter).
func redact(name string) string {
	u, err := url.Parse(name)
	if err != nil {
		// no URL to take apart: keep the scheme, hide the rest
		scheme, _, _ := strings.Cut(name, "://")
		return scheme + "://…"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.User(u.User.Username())
		}
	}
	q := u.Query()
	if q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// HasPassword reports whether a PostgreSQL URL holds a password, which a
// command line must not (ps shows it to every user of the machine, and a
// measuring run's record keeps its command line).
func HasPassword(name string) bool {
	if !IsURL(name) {
		return false
	}
	u, err := url.Parse(name)
	if err != nil {
		return strings.Contains(name, "@") // a malformed one: the safe side
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			return true
		}
	}
	return u.Query().Has("password")
}

// CheckArgs refuses a command line that holds a PostgreSQL URL with a
// password, wherever it is (-archive URL, -archive=URL, archive copy's
// arguments): it names the safe places for one.
func CheckArgs(args []string) error {
	for _, a := range args {
		if i := strings.Index(strings.ToLower(a), "postgres"); i >= 0 && HasPassword(a[i:]) {
			return fmt.Errorf("%s: a password on the command line shows in ps and in the run's record; "+
				"put it in ~/.pgpass (or $PGPASSFILE), $PGPASSWORD or $GOMB_ARCHIVE", redact(a[i:]))
		}
	}
	return nil
}

// connectTimeout bounds a connection attempt whose URL and environment
// set none (connect_timeout, PGCONNECT_TIMEOUT).
const connectTimeout = 10 * time.Second

// openPostgres connects and, if create is set, makes the archive's schema
// and tables or brings them up to date; without create, an archive that
// is not there is ErrNoArchive.
func openPostgres(name string, create bool) (*DB, error) {
	t, err := parseURL(name)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*DB, error) {
		return nil, fmt.Errorf("archive %s: %s", t.shown, oneLine(err))
	}
	cfg, err := pgx.ParseConfig(t.conn)
	if err != nil {
		return fail(err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	// Every session's search path is the archive's schema alone: the
	// queries name its tables unqualified, as SQLite's do.
	cfg.RuntimeParams["search_path"] = pgx.Identifier{t.schema}.Sanitize()
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "gomb"
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(2) // a listing reads labels while its runs are still open
	d := &DB{db: db, Path: t.shown, d: pgDialect, role: cfg.User,
		lock: fmt.Sprintf(`SELECT pg_advisory_xact_lock(hashtextextended('gomb archive %s', 0))`, t.schema)}
	if err := d.pgOpen(t.schema, create); err != nil {
		db.Close()
		if errors.Is(err, ErrNoArchive) {
			return nil, fmt.Errorf("%w at %s (schema %s; gomb archive add makes one)", ErrNoArchive, t.shown, t.schema)
		}
		return fail(err)
	}
	return d, nil
}

// oneLine is an error's text on one line (pgx's connection errors list
// each address tried on a line of its own).
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

// pgOpen checks the schema, migrates it when asked and may, and finds out
// whether this role may write.
func (d *DB) pgOpen(schema string, create bool) error {
	var role string
	var readOnly bool
	if err := d.db.QueryRow(`SELECT current_user, current_setting('transaction_read_only') = 'on'`).Scan(&role, &readOnly); err != nil {
		return err
	}
	d.role = role
	v, err := d.pgVersion()
	if err != nil {
		return err
	}
	switch {
	case v > len(pgMigrations):
		return fmt.Errorf("made by a newer gomb (schema %d, this gomb knows %d)", v, len(pgMigrations))
	case v == 0 && !create:
		return ErrNoArchive
	case v < len(pgMigrations):
		if readOnly {
			return fmt.Errorf("the server is read-only (a standby?) and the archive's schema %s is %d, which this gomb (schema %d) would have to make or migrate", schema, v, len(pgMigrations))
		}
		if err := d.pgMigrate(schema); err != nil {
			return err
		}
	}
	if readOnly {
		d.ReadOnly = true
		return nil
	}
	// A role that may read and not write (the centre's dashboards', or a
	// user's who only queries) is told so before a command tries.
	var canWrite bool
	err = d.db.QueryRow(`SELECT has_table_privilege('runs', 'INSERT') AND has_table_privilege('results', 'INSERT')
		AND has_table_privilege('labels', 'INSERT') AND has_table_privilege('runs', 'DELETE')`).Scan(&canWrite)
	if err != nil {
		return err
	}
	d.ReadOnly = !canWrite
	return nil
}

// pgVersion is the archive's schema version: 0 where its schema or its
// version table is not there.
func (d *DB) pgVersion() (int, error) {
	var ok bool
	if err := d.db.QueryRow(`SELECT to_regclass('schema_version') IS NOT NULL`).Scan(&ok); err != nil || !ok {
		return 0, err
	}
	var v int
	err := d.db.QueryRow(`SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

// pgMigrate makes the schema and its tables, or brings them up to date,
// under the archive's lock (two gombs making the same new archive at once
// take turns; the second finds it made).
func (d *DB) pgMigrate(schema string) error {
	tx, err := d.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(d.lock); err != nil {
		return err
	}
	var exists bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		if _, err := tx.Exec(`CREATE SCHEMA ` + pgx.Identifier{schema}.Sanitize()); err != nil {
			return err
		}
	}
	var v int
	var versioned bool
	if err := tx.QueryRow(`SELECT to_regclass('schema_version') IS NOT NULL`).Scan(&versioned); err != nil {
		return err
	}
	if versioned {
		if err := tx.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil {
			return err
		}
	} else {
		// A schema that is not empty and not ours is left alone.
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
			WHERE s.nspname = $1`, schema).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("not a gomb archive (schema %s holds other tables; name another with ?schema=NAME)", schema)
		}
		if _, err := tx.Exec(`CREATE TABLE schema_version (version integer NOT NULL);
			INSERT INTO schema_version VALUES (0)`); err != nil {
			return err
		}
	}
	for ; v < len(pgMigrations); v++ {
		if pgMigrations[v] == "" {
			continue
		}
		if _, err := tx.Exec(pgMigrations[v]); err != nil {
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
	}
	if _, err := tx.Exec(`UPDATE schema_version SET version = $1`, v); err != nil {
		return err
	}
	return tx.Commit()
}

// pgMigrations are PostgreSQL's migrations, one for each of SQLite's (the
// schema version is the same number in both). There was no PostgreSQL
// archive before schema 5: the first makes the tables as SQLite's fifth
// leaves them, and the next four have nothing to do. The columns are
// SQLite's (times as fixed-width UTC text, records as JSON text, the
// results gzipped); results_metric serves History's look-up without
// regard to case.
var pgMigrations = []string{
	`CREATE TABLE runs (
		id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
		identity   text NOT NULL UNIQUE,
		run_id     text NOT NULL,
		suite      text NOT NULL,
		source     text NOT NULL,
		file       text NOT NULL DEFAULT '',
		started    text NOT NULL DEFAULT '',
		added      text NOT NULL,
		system     text NOT NULL DEFAULT '',
		config     text NOT NULL DEFAULT '',
		mpi        text NOT NULL DEFAULT '',
		np         integer NOT NULL DEFAULT 0,
		locality   text NOT NULL DEFAULT '',
		nresults   integer NOT NULL,
		status     text NOT NULL DEFAULT '',
		run_json   text NOT NULL,
		end_json   text NOT NULL DEFAULT '',
		results_gz bytea
	);
	CREATE TABLE labels (
		run   bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		key   text NOT NULL,
		value text NOT NULL,
		PRIMARY KEY (run, key)
	);
	CREATE TABLE results (
		run         bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq         integer NOT NULL,
		benchmark   text NOT NULL,
		np          integer NOT NULL,
		grp         integer NOT NULL,
		bytes       bigint NOT NULL,
		repetitions bigint NOT NULL,
		status      text NOT NULL,
		t_min_us    double precision NOT NULL,
		t_max_us    double precision NOT NULL,
		t_avg_us    double precision NOT NULL,
		mbps        double precision NOT NULL,
		locality    text NOT NULL DEFAULT '',
		PRIMARY KEY (run, seq)
	);
	CREATE INDEX results_metric ON results (lower(benchmark), bytes, np);
	CREATE INDEX runs_started ON runs (started);
	CREATE INDEX runs_system ON runs (system, config);`,
	"", // 2: results_metric without regard to case: made so in 1
	"", // 3: results_gz: made in 1
	"", // 4: results without their JSON: made so in 1
	"", // 5: results in run order: its primary key is (run, seq)
}

// pgFail is a PostgreSQL error as the user reads it: a refusal to write
// (no privilege, a read-only server) is the read-only archive's one line;
// anything else on one line.
func (d *DB) pgFail(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "42501", "25006": // insufficient_privilege, read_only_sql_transaction
			return fmt.Errorf("archive %s: role %s may not change this archive (%s)", d.Path, d.role, pe.Message)
		}
		return fmt.Errorf("archive %s: %s (SQLSTATE %s)", d.Path, pe.Message, pe.Code)
	}
	if errors.Is(err, sql.ErrNoRows) || strings.HasPrefix(err.Error(), "archive ") {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "conn closed") {
		return fmt.Errorf("archive %s: the server closed the connection (%s)", d.Path, oneLine(err))
	}
	return fmt.Errorf("archive %s: %s", d.Path, oneLine(err))
}
