package archive

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/gomb-hpc/gomb/result"
)

// Selector picks runs by their labels. The zero Selector picks all.
type Selector struct {
	IDs      []int64
	System   string
	Config   string
	MPI      string // substring of the library name, e.g. "Open MPI", "4.1"
	Suite    string
	Source   string
	Locality string
	NP       int
	Since    time.Time
	Until    time.Time
	Labels   map[string]string
	Last     int // only the N most recent of the others
}

// SelectorHelp describes the selection words.
const SelectorHelp = `selection words (all must hold):
  ID                 a run id (several allowed)
  system=S config=C  the labels given when the run was added
  mpi=TEXT           the MPI library name contains TEXT (e.g. mpi=MPICH, mpi=4.1)
  suite=imb|osu|ring source=gomb|imb|osu|ring
  np=N               processes started
  locality=intra-node|inter-node|mixed
  since=DATE until=DATE  YYYY-MM-DD or RFC 3339 (start of the run)
  last=N             only the N most recent
  KEY=VALUE          any other label`

// ParseSelector reads selection words.
func ParseSelector(words []string) (Selector, error) {
	var s Selector
	for _, w := range words {
		if id, err := strconv.ParseInt(w, 10, 64); err == nil {
			s.IDs = append(s.IDs, id)
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return s, fmt.Errorf("selection %q: want KEY=VALUE or a run id", w)
		}
		var err error
		switch k {
		case "system":
			s.System = v
		case "config":
			s.Config = v
		case "mpi":
			s.MPI = v
		case "suite":
			s.Suite = v
		case "source":
			s.Source = v
		case "locality":
			if v != result.IntraNode && v != result.InterNode && v != result.Mixed {
				return s, fmt.Errorf("selection %q: locality is intra-node, inter-node or mixed", w)
			}
			s.Locality = v
		case "np":
			if s.NP, err = strconv.Atoi(v); err != nil || s.NP < 0 {
				return s, fmt.Errorf("selection %q: np wants a number", w)
			}
		case "last":
			if s.Last, err = strconv.Atoi(v); err != nil || s.Last <= 0 {
				return s, fmt.Errorf("selection %q: last wants a positive number", w)
			}
		case "since", "until":
			t, day, err := parseDate(v)
			if err != nil {
				return s, fmt.Errorf("selection %q: %v", w, err)
			}
			if k == "since" {
				s.Since = t
			} else if day {
				s.Until = t.AddDate(0, 0, 1) // until=2026-01-31 takes in the 31st
			} else {
				s.Until = t.Add(time.Nanosecond)
			}
		default:
			if s.Labels == nil {
				s.Labels = map[string]string{}
			}
			s.Labels[k] = v
		}
	}
	return s, nil
}

// parseDate reads a date or a time (UTC unless it says); day is set for a
// date alone.
func parseDate(v string) (t time.Time, day bool, err error) {
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t, true, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not a date (YYYY-MM-DD or RFC 3339)", v)
}

// where builds the SQL condition on table alias r, in dialect d.
func (s Selector) where(d *dialect) (string, []any) {
	var cond []string
	var args []any
	eq := func(col, v string) {
		if v != "" {
			cond = append(cond, "r."+col+" = ?")
			args = append(args, v)
		}
	}
	eq("system", s.System)
	eq("config", s.Config)
	eq("suite", s.Suite)
	eq("source", s.Source)
	eq("locality", s.Locality)
	if s.MPI != "" {
		cond = append(cond, fmt.Sprintf(d.contains, "r.mpi"))
		args = append(args, s.MPI)
	}
	if s.NP > 0 {
		cond = append(cond, "r.np = ?")
		args = append(args, s.NP)
	}
	if !s.Since.IsZero() {
		cond = append(cond, "r.started >= ?")
		args = append(args, stamp(s.Since))
	}
	if !s.Until.IsZero() {
		cond = append(cond, "r.started != '' AND r.started < ?")
		args = append(args, stamp(s.Until))
	}
	if len(s.IDs) > 0 {
		q := make([]string, len(s.IDs))
		for i, id := range s.IDs {
			q[i] = "?"
			args = append(args, id)
		}
		cond = append(cond, "r.id IN ("+strings.Join(q, ",")+")")
	}
	keys := make([]string, 0, len(s.Labels))
	for k := range s.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cond = append(cond, "EXISTS (SELECT 1 FROM labels l WHERE l.run = r.id AND l.key = ? AND l.value = ?)")
		args = append(args, k, s.Labels[k])
	}
	if len(cond) == 0 {
		return "1 = 1", nil
	}
	return strings.Join(cond, " AND "), args
}

// RunInfo is a run's row in a listing.
type RunInfo struct {
	ID       int64
	RunID    string
	Suite    string
	Source   string
	File     string
	Started  time.Time // zero when unknown
	Added    time.Time
	System   string
	Config   string
	MPI      string
	NP       int
	Locality string
	Results  int
	Status   string
	Labels   map[string]string
}

// runCols are a run's columns in a listing, as scanRun reads them.
const runCols = `r.id, r.run_id, r.suite, r.source, r.file, r.started, r.added, r.system, r.config, r.mpi, r.np,
	r.locality, r.nresults, r.status`

// byDate orders runs by their start, runs without a date by when they
// were added.
const (
	byDate     = `coalesce(nullif(r.started, ''), r.added), r.id`
	byDateDesc = `coalesce(nullif(r.started, ''), r.added) DESC, r.id DESC`
)

func scanRun(rows *sql.Rows, more ...any) (RunInfo, error) {
	var ri RunInfo
	var started, added string
	err := rows.Scan(append([]any{&ri.ID, &ri.RunID, &ri.Suite, &ri.Source, &ri.File, &started, &added, &ri.System,
		&ri.Config, &ri.MPI, &ri.NP, &ri.Locality, &ri.Results, &ri.Status}, more...)...)
	ri.Started, _ = time.Parse(timeLayout, started)
	ri.Added, _ = time.Parse(timeLayout, added)
	return ri, err
}

// List returns the selected runs, oldest first.
func (d *DB) List(s Selector) ([]RunInfo, error) {
	cond, args := s.where(d.d)
	q := `SELECT ` + runCols + ` FROM runs r WHERE ` + cond + ` ORDER BY ` + byDate
	if s.Last > 0 {
		q = `SELECT ` + runCols + ` FROM (SELECT r.* FROM runs r WHERE ` + cond + ` ORDER BY ` +
			byDateDesc + ` LIMIT ` + strconv.Itoa(s.Last) + `) r ORDER BY ` + byDate
	}
	rows, err := d.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunInfo
	for rows.Next() {
		ri, err := scanRun(rows)
		if err != nil {
			return nil, d.fail(err)
		}
		out = append(out, ri)
	}
	if err := rows.Err(); err != nil {
		return nil, d.fail(err)
	}
	if err := d.labels(cond, args, out); err != nil {
		return nil, err
	}
	return out, nil
}

// labels fills the labels of the listed runs in one query.
func (d *DB) labels(cond string, args []any, runs []RunInfo) error {
	at := make(map[int64]*RunInfo, len(runs))
	for i := range runs {
		runs[i].Labels = map[string]string{}
		at[runs[i].ID] = &runs[i]
	}
	rows, err := d.query(`SELECT l.run, l.key, l.value FROM labels l JOIN runs r ON r.id = l.run WHERE `+cond, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var k, v string
		if err := rows.Scan(&id, &k, &v); err != nil {
			return d.fail(err)
		}
		if ri := at[id]; ri != nil {
			ri.Labels[k] = v
		}
	}
	return d.fail(rows.Err())
}

// ErrNoRun is returned for a run id the archive does not hold.
var ErrNoRun = errors.New("no such run")

// Load reads a whole run back: its run record, every result with its raw
// samples, and its end record when it had one.
func (d *DB) Load(id int64) (*result.Bundle, error) {
	var runJSON, endJSON string
	var gz []byte
	err := d.queryRow(`SELECT run_json, end_json, results_gz FROM runs WHERE id = ?`, id).Scan(&runJSON, &endJSON, &gz)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: %w", id, ErrNoRun)
	}
	if err != nil {
		return nil, d.fail(err)
	}
	r := &result.Bundle{Run: new(result.Run)}
	if err := json.Unmarshal([]byte(runJSON), r.Run); err != nil {
		return nil, fmt.Errorf("run %d: stored record: %w", id, err)
	}
	if endJSON != "" {
		r.End = new(result.End)
		if err := json.Unmarshal([]byte(endJSON), r.End); err != nil {
			return nil, fmt.Errorf("run %d: stored end record: %w", id, err)
		}
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("run %d: stored results: %w", id, err)
	}
	dec := json.NewDecoder(zr)
	for {
		x := new(result.Result)
		if err := dec.Decode(x); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("run %d: stored result: %w", id, err)
		}
		r.Results = append(r.Results, x)
	}
	return r, nil
}

// Export writes the selected runs as gomb records (JSON Lines).
func (d *DB) Export(s Selector, w io.Writer) (int, error) {
	runs, err := d.List(s)
	if err != nil {
		return 0, err
	}
	for _, ri := range runs {
		r, err := d.Load(ri.ID)
		if err != nil {
			return 0, err
		}
		if err := r.Encode(w); err != nil {
			return 0, err
		}
	}
	return len(runs), nil
}

// Metrics that History can follow, by record field name.
var Metrics = map[string]string{
	"t_avg_us": "t_avg_us", "t_min_us": "t_min_us", "t_max_us": "t_max_us", "mbytes_per_sec": "mbps",
}

// Point is one run's value of a metric.
type Point struct {
	Run     RunInfo
	NP      int
	Value   float64
	Status  string
	Results int // rows that matched in the run (several with -multi 1 groups)
}

// History follows one metric of one benchmark, size and (if np > 0)
// process count over the selected runs, oldest first.
func (d *DB) History(s Selector, benchmark string, bytes int64, np int, metric string) ([]Point, error) {
	col, ok := Metrics[metric]
	if !ok {
		return nil, fmt.Errorf("unknown metric %q (t_avg_us, t_min_us, t_max_us, mbytes_per_sec)", metric)
	}
	cond, args := s.where(d.d)
	q := `SELECT ` + runCols + `, x.np, avg(x.` + col + `), min(x.status), count(*) FROM results x JOIN runs r ON r.id = x.run
		WHERE ` + d.d.benchEq + ` AND x.bytes = ?`
	qargs := []any{benchmark, bytes}
	if np > 0 {
		q += ` AND x.np = ?`
		qargs = append(qargs, np)
	}
	q += ` AND ` + cond + ` GROUP BY r.id, x.np ORDER BY ` + byDate + `, x.np`
	rows, err := d.query(q, append(qargs, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Point
	for rows.Next() {
		var p Point
		p.Run, err = scanRun(rows, &p.NP, &p.Value, &p.Status, &p.Results)
		if err != nil {
			return nil, d.fail(err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, d.fail(err)
	}
	if s.Last > 0 && len(out) > s.Last {
		out = out[len(out)-s.Last:]
	}
	runs := make([]RunInfo, len(out))
	for i := range out {
		runs[i] = out[i].Run
	}
	if err := d.labels(cond, args, runs); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Run = runs[i]
	}
	return out, nil
}
