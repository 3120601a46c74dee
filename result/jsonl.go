package result

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"
)

// Encoder writes records as JSON Lines. Each record goes out in one Write
// call, so a reader never sees half a record unless the writer was killed
// inside that call. It is safe for concurrent use (the signal handler ends a
// stream while the main goroutine may be writing).
type Encoder struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte // the record being written, reused
	results int
	closed  bool
	// bytes, largest and encode: what the result records cost, for the
	// end record's RecordCost.
	bytes, largest int64
	encode         time.Duration
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// put writes one record unless the stream has ended.
func (e *Encoder) put(v any, isResult bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	if isResult {
		e.results++
	}
	return e.write(v)
}

func (e *Encoder) write(v any) error {
	t0 := time.Now()
	b, err := appendRecord(e.buf[:0], v)
	if err != nil {
		return fmt.Errorf("encode record: %w", err)
	}
	e.buf = append(b, '\n')
	if _, err := e.w.Write(e.buf); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	if _, ok := v.(*Result); ok {
		e.encode += time.Since(t0)
		e.bytes += int64(len(e.buf))
		e.largest = max(e.largest, int64(len(e.buf)))
	}
	return nil
}

// Cost says what the result records written so far cost: their bytes, the
// largest, and the time spent encoding and writing them.
func (e *Encoder) Cost() (bytes, largest int64, encode time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bytes, e.largest, e.encode
}

// appendRecord appends v as json.Marshal writes it.
func appendRecord(b []byte, v any) ([]byte, error) {
	if r, ok := v.(*Result); ok {
		return appendResult(b, r)
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}

// Run writes the run record.
func (e *Encoder) Run(r *Run) error {
	r.Type, r.Schema = TypeRun, Schema
	return e.put(r, false)
}

// Result writes one result record.
func (e *Encoder) Result(r *Result) error {
	r.Type, r.Schema = TypeResult, Schema
	if err := r.Validate(); err != nil {
		return err
	}
	return e.put(r, true)
}

// End writes the end record and refuses every later record: after an
// interrupt, the main goroutine may still try to write.
func (e *Encoder) End(r *End) error {
	r.Type, r.Schema = TypeEnd, Schema
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	r.Results = e.results
	return e.write(r)
}

// SyntaxError is a line that is not a valid record.
type SyntaxError struct {
	File string
	Line int
	Err  error
	Kept bool // the line was read all the same, as the note says
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// ErrCutShort marks a last line that has no newline and does not parse: the
// writer was killed in the middle of a record (a SIGKILL can stop a write
// between pages). The records before it are intact.
var ErrCutShort = errors.New("last record cut short (the writer stopped mid-write)")

// Decoder reads a JSON Lines record stream. Scan advances to the next
// non-blank line; Record returns it as *Run, *Result, *End or, for a line
// that is not a valid record, *SyntaxError. Malformed lines do not stop the
// stream.
type Decoder struct {
	r    *bufio.Reader
	file string
	line int
	rec  any
	err  error
}

// NewDecoder returns a Decoder over r; file names the input in errors.
func NewDecoder(r io.Reader, file string) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 1<<20), file: file}
}

// Scan reads the next record; it returns false at the end of the input or
// on a read error (see Err).
func (d *Decoder) Scan() bool {
	for {
		b, err := d.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			if !errors.Is(err, io.EOF) {
				d.err = err
			}
			return false
		}
		d.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err != nil {
				return false
			}
			continue
		}
		d.rec = d.parse(b)
		if se, ok := d.rec.(*SyntaxError); ok && err != nil && !json.Valid(b) {
			se.Err = fmt.Errorf("%w: %v", ErrCutShort, se.Err)
		}
		return true
	}
}

// Record returns the record of the last Scan.
func (d *Decoder) Record() any { return d.rec }

// Line is the line number of the last Scan's record.
func (d *Decoder) Line() int { return d.line }

// Err returns the read error that ended Scan, if any.
func (d *Decoder) Err() error { return d.err }

func (d *Decoder) syntax(err error) *SyntaxError {
	return &SyntaxError{File: d.file, Line: d.line, Err: err}
}

func (d *Decoder) parse(b []byte) any {
	var head struct {
		Type   string `json:"type"`
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return d.syntax(fmt.Errorf("not a JSON record: %w", err))
	}
	if head.Schema != Schema {
		if strings.HasPrefix(head.Schema, "gomb/") {
			return d.syntax(fmt.Errorf("record schema %q is not supported by this gomb (it reads %s)", head.Schema, Schema))
		}
		return d.syntax(fmt.Errorf("not a gomb record (schema %q)", head.Schema))
	}
	var v any
	switch head.Type {
	case TypeRun: // options and summary stay as written, key order too
		v = &Run{Options: &json.RawMessage{}}
	case TypeResult:
		v = new(Result)
	case TypeEnd:
		v = &End{Summary: &json.RawMessage{}}
	default:
		return d.syntax(fmt.Errorf("unknown record type %q", head.Type))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return d.syntax(fmt.Errorf("bad %s record: %w", head.Type, err))
	}
	switch r := v.(type) {
	case *Result:
		if err := r.Validate(); err != nil {
			return d.syntax(err)
		}
	case *Run:
		r.Options = rawOrNil(r.Options)
	case *End:
		r.Summary = rawOrNil(r.Summary)
	}
	return v
}

// validate checks the invariants a reader relies on.
// Limits of the counts a result may hold: far beyond any job (16 M
// ranks) and any message, and far below where an int64 wraps.
const (
	MaxNP    = 1 << 24
	MaxBytes = 1 << 62
)

// Validate is what every reader accepts and every writer writes of a
// result: a benchmark; counts in range; per-rank arrays of one length;
// and every time, rate and sample a finite number, not negative. The
// Decoder refuses a record that fails it, the Encoder does not write one,
// and the importers drop (and report) a row that would.
func (r *Result) Validate() error {
	if r.Benchmark == "" {
		return errors.New("result record without benchmark")
	}
	if len(r.RankMeanUS) != len(r.Ranks) || len(r.SamplesUS) != len(r.Ranks) {
		return fmt.Errorf("result record %s %d B: ranks, rank_mean_us and samples_us differ in length", r.Benchmark, r.Bytes)
	}
	if r.NP < 0 || r.NP > MaxNP || r.Bytes < 0 || r.Bytes > MaxBytes || r.Repetitions < 0 || r.Groups < 0 {
		return fmt.Errorf("result record %s: np %d, bytes %d, repetitions %d, groups %d out of range",
			r.Benchmark, r.NP, r.Bytes, r.Repetitions, r.Groups)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"t_min_us", r.TMinUS}, {"t_max_us", r.TMaxUS}, {"t_avg_us", r.TAvgUS}, {"mbytes_per_sec", r.MBps},
		{"msg_per_sec", r.MsgPerSec}, {"needed_gb", r.NeededGB}, {"p50_us", r.P50US}, {"p90_us", r.P90US},
		{"p99_us", r.P99US}} {
		if !measured(f.v) {
			return fmt.Errorf("result record %s %d B: %s %g is not a number >= 0", r.Benchmark, r.Bytes, f.name, f.v)
		}
	}
	for _, t := range r.Tail {
		if t.P < 0 || t.P > 100 || !measured(t.Value) {
			return fmt.Errorf("result record %s %d B: tail P%d %g: want a percentile 0 to 100 and a number >= 0", r.Benchmark, r.Bytes, t.P, t.Value)
		}
	}
	if r.Precision != nil && !measured(*r.Precision) {
		return fmt.Errorf("result record %s %d B: precision %g is not a number >= 0", r.Benchmark, r.Bytes, *r.Precision)
	}
	for i, v := range r.RankMeanUS {
		if !measured(v) {
			return fmt.Errorf("result record %s %d B: rank_mean_us of rank %d, %g, is not a number >= 0", r.Benchmark, r.Bytes, r.Ranks[i], v)
		}
	}
	for i, s := range r.SamplesUS {
		for _, v := range s {
			if !measured(v) {
				return fmt.Errorf("result record %s %d B: a sample of rank %d, %g, is not a number >= 0", r.Benchmark, r.Bytes, r.Ranks[i], v)
			}
		}
	}
	return nil
}

// measured reports whether v can be a time, rate or count: finite, not
// negative.
func measured(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// rawOrNil is nil for a field that was absent or null.
func rawOrNil(v any) any {
	if m, ok := v.(*json.RawMessage); ok && (len(*m) == 0 || string(*m) == "null") {
		return nil
	}
	return v
}
