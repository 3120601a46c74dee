// Package importer turns existing benchmark output into gomb records: IMB-MPI1
// logs (2018–2021.x, and gomb's IMB tables), OSU Micro-Benchmarks 5.x–7.x
// output (and gomb's OSU tables), mpi-comm-bench ring output (and gomb's),
// and gomb's own JSON Lines records.
//
// The steps: Sniff picks the format from the start of the file; the
// format's parser walks the lines, keeps every piece of metadata the log
// carries (date, MPI version, calling sequence, launcher command, hosts,
// exported environment), cuts the file into runs, and turns each table row
// into a result.Result. A malformed row is reported with file:line and the
// rest goes on; lines that belong to no table (launcher warnings, prose)
// are counted and skipped.
package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gomb-hpc/gomb/result"
)

// Format names an input format.
type Format string

// The formats.
const (
	Records Format = result.RecordsFormat // gomb's JSON Lines records
	IMB     Format = "imb"                // IMB-MPI1 text (and gomb imb's)
	OSU     Format = "osu"                // OSU Micro-Benchmarks text (and gomb osu's)
	Ring    Format = "ring"               // mpi-comm-bench output (and gomb ring's)
)

// Options are what the user adds to every imported run.
type Options struct {
	// Labels name the run: "system", "config" and any key=value.
	Labels map[string]string
	// NP is the number of processes for logs that do not say (0: unknown).
	NP int
	// Locality is "intra-node" or "inter-node" for logs that do not say.
	Locality string
}

// File is what one input gave.
type File struct {
	Name     string
	Format   Format
	Hash     string // sha256 of the content
	Runs     []*result.Bundle
	Problems []error // *result.SyntaxError: malformed lines, with file:line
	Foreign  int     // lines that belong to no table
	Count    int     // runs found (with emit, none is kept in Runs)

	opt  Options
	emit func(*result.Bundle) error // nil: keep the runs in Runs
	err  error                      // the first error of emit
}

// add takes a run the parser has finished: numbered, completed, then kept
// or handed to emit.
func (f *File) add(r *result.Bundle) {
	r.Run.Source.Index = f.Count
	f.Count++
	finish(r, f.opt)
	switch {
	case f.emit == nil:
		f.Runs = append(f.Runs, r)
	case f.err == nil:
		f.err = f.emit(r)
	}
}

// Sniff names the format of a file from its content; "" if it is none of
// gomb's inputs.
func Sniff(data []byte) Format {
	head := data
	if len(head) > 1<<16 {
		head = head[:1<<16]
	}
	if isRecord(head) {
		return Records
	}
	switch {
	case bytes.Contains(head, []byte("MPI Benchmarks")) || bytes.Contains(head, []byte("IMB-MPI1 2021")) ||
		bytes.Contains(head, []byte("#repetitions")):
		return IMB
	case bytes.Contains(head, []byte("# OSU MPI")) || bytes.Contains(head, []byte("# gomb One-way Latency Test")):
		return OSU
	case bytes.Contains(head, []byte("Ring comm benchmark.")) ||
		bytes.Contains(head, []byte("Bandwidth (send + recv): min =")):
		return Ring
	}
	return ""
}

// isRecord tells whether the first line of head is a gomb record: a JSON
// object whose schema is gomb's, however the JSON is spaced.
func isRecord(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	var rec struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(line, &rec) == nil && strings.HasPrefix(rec.Schema, "gomb/")
}

// Import parses one file. It fails only for content that is no known
// format; malformed lines are in the File's Problems.
func Import(data []byte, name string, opt Options) (*File, error) {
	return importFrom(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, name, opt, nil)
}

// ImportFile parses the file at path (named name in messages) a line at a
// time, twice (its hash names the runs). With emit, each run is handed on
// as soon as it is complete, so that memory does not grow with the file,
// and the File that returns has no Runs (gomb record files are read
// whole); without, the runs are in the File.
func ImportFile(path, name string, opt Options, emit func(*result.Bundle) error) (*File, error) {
	return importFrom(func() (io.ReadCloser, error) { return os.Open(path) }, name, opt, emit)
}

const headSize = 1 << 16

// importFrom reads the content that open gives (once for the hash, once to
// parse; gzip is undone on the way).
func importFrom(open func() (io.ReadCloser, error), name string, opt Options, emit func(*result.Bundle) error) (*File, error) {
	head, err := readHead(open)
	if err != nil {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		raw := open
		open = func() (io.ReadCloser, error) {
			rc, err := raw()
			if err != nil {
				return nil, err
			}
			zr, err := gzip.NewReader(bufio.NewReaderSize(rc, 1<<16))
			if err != nil {
				rc.Close()
				return nil, fmt.Errorf("%s: gzip-compressed, and it does not decompress: %v", name, err)
			}
			return gzipReader{zr, rc}, nil
		}
		if head, err = readHead(open); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return nil, fmt.Errorf("%s: UTF-16 text; gomb reads UTF-8 (iconv -f UTF-16 -t UTF-8 %s)", name, name)
	}
	f := &File{Name: name, Format: Sniff(head), emit: emit}
	if f.Format == "" {
		return nil, fmt.Errorf("%s: not an IMB-MPI1 log, OSU output, mpi-comm-bench output or gomb record file", name)
	}
	h := sha256.New()
	if err := readAll(open, func(r io.Reader) error { _, err := io.Copy(h, r); return err }); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.Hash = hex.EncodeToString(h.Sum(nil))
	if m := npInName.FindStringSubmatch(filepath.Base(name)); m != nil && opt.NP == 0 {
		opt.NP, _ = strconv.Atoi(m[1]) // "imb-np64.log": the processes started
	}
	f.opt = opt
	err = readAll(open, func(r io.Reader) error {
		switch f.Format {
		case Records:
			importRecords(f, r)
		case IMB:
			parseIMB(f, r)
		case OSU:
			parseOSU(f, r)
		case Ring:
			parseRing(f, r)
		}
		return nil
	})
	if err == nil {
		err = f.err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// gzipReader decompresses; its errors say the content is gzip's.
type gzipReader struct {
	zr  *gzip.Reader
	raw io.Closer
}

func (g gzipReader) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip-compressed, and it does not decompress: %w", err)
	}
	return n, err
}

func (g gzipReader) Close() error { return g.raw.Close() }

// readHead is the first headSize bytes of the content.
func readHead(open func() (io.ReadCloser, error)) ([]byte, error) {
	var head []byte
	err := readAll(open, func(r io.Reader) (err error) {
		head, err = io.ReadAll(io.LimitReader(r, headSize))
		return err
	})
	return head, err
}

// readAll opens the content, hands it to read and closes it.
func readAll(open func() (io.ReadCloser, error), read func(io.Reader) error) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return read(rc)
}

// finish fills what every imported run carries: ids, labels, counts.
func finish(r *result.Bundle, opt Options) {
	run := r.Run
	run.Type, run.Schema = result.TypeRun, result.Schema
	run.RunID = fmt.Sprintf("%.16s-%d", run.Source.Hash, run.Source.Index)
	if len(opt.Labels) > 0 {
		run.Labels = map[string]string{}
		for k, v := range opt.Labels {
			run.Labels[k] = v
		}
	}
	for _, res := range r.Results {
		res.Type, res.Schema, res.RunID = result.TypeResult, result.Schema, run.RunID
		if res.NP == 0 {
			res.NP = opt.NP
		}
		if res.Locality == "" {
			res.Locality = opt.Locality
		}
		if res.Ranks == nil {
			res.Ranks, res.RankMeanUS, res.SamplesUS = []int{}, []float64{}, [][]float64{}
		}
		if res.Status == "" {
			res.Status = result.StatusOK
		}
		if res.Groups == 0 {
			res.Groups = 1
		}
		run.WorldSize = max(run.WorldSize, res.NP)
	}
	if run.WorldSize == 0 {
		run.WorldSize = opt.NP
	}
}

// importRecords reads gomb's own record files: one Run per run_id.
func importRecords(f *File, r io.Reader) {
	d := result.NewDecoder(r, f.Name)
	byID := map[string]*result.Bundle{}
	get := func(id string) *result.Bundle {
		r := byID[id]
		if r == nil {
			r = &result.Bundle{}
			byID[id] = r
			f.Runs = append(f.Runs, r)
		}
		return r
	}
	for d.Scan() {
		switch rec := d.Record().(type) {
		case *result.Run:
			r := get(rec.RunID)
			r.Run = rec
			for k, v := range rec.Labels {
				if result.CheckLabel(k) != nil || result.CheckLabel(v) != nil {
					delete(rec.Labels, k)
					rec.Labels[result.EscapeLabel(k)] = result.EscapeLabel(v)
					f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: d.Line(), Kept: true,
						Err: fmt.Errorf("label %s=%s: control characters, stored escaped", result.EscapeLabel(k), result.EscapeLabel(v))})
				}
			}
			if rec.Source == nil {
				rec.Source = &result.Source{Format: string(Records), File: f.Name, Hash: f.Hash}
			}
		case *result.Result:
			r := get(rec.RunID)
			r.Results = append(r.Results, rec)
		case *result.End:
			get(rec.RunID).End = rec
		case *result.SyntaxError:
			f.Problems = append(f.Problems, rec)
		}
	}
	// Results without their run record cannot be placed.
	kept := f.Runs[:0]
	for _, r := range f.Runs {
		if r.Run == nil {
			f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: 0,
				Err: fmt.Errorf("%d result records of a run without its run record", len(r.Results))})
			continue
		}
		kept = append(kept, r)
	}
	f.Runs, f.Count = kept, len(kept)
	if f.emit != nil {
		for _, r := range kept {
			if f.err == nil {
				f.err = f.emit(r)
			}
		}
		f.Runs = nil
	}
}

// fields is bytes.Fields(s) appended to dst: the parsers split every row
// into a slice they reuse.
func fields(dst [][]byte, s []byte) [][]byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf { // Unicode spaces: bytes.Fields knows them
			return append(dst, bytes.Fields(s)...)
		}
	}
	start := -1
	for i, c := range s {
		if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
			if start >= 0 {
				dst = append(dst, s[start:i:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:len(s):len(s)])
	}
	return dst
}

// lines walks the lines of r, with 1-based numbers, without keeping
// them: fn must copy what it keeps. A line with control characters (NUL,
// escapes) is no row of a table: when it starts like one it is a problem of
// f's, else foreign text; fn does not see it.
func lines(f *File, r io.Reader, fn func(n int, line []byte)) {
	eachLine(r, func(n int, l []byte) {
		if hasControl(l) {
			if t := bytes.Fields(l); len(t) > 0 && isNumber(t[0]) {
				problem(f, n, "a row with control characters %q", l)
			} else {
				f.Foreign++
			}
			return
		}
		fn(n, l)
	})
}

// hasControl finds C0 controls but TAB, DEL and C1 controls (U+0080–U+009F,
// 0xC2 0x80–0x9F in UTF-8).
func hasControl(l []byte) bool {
	for i, c := range l {
		if c < 0x20 && c != '\t' || c == 0x7f || c == 0xc2 && i+1 < len(l) && l[i+1] >= 0x80 && l[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// eachLine walks the lines of r; a line is valid only during its call.
func eachLine(r io.Reader, fn func(n int, line []byte)) {
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte // a line longer than the buffer
	n := 0
	for {
		l, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, l...)
			continue
		}
		if long != nil {
			l, long = append(long, l...), nil
		}
		if len(l) > 0 {
			n++
			fn(n, bytes.TrimRight(l, " \t\r\n"))
		}
		if err != nil {
			return
		}
	}
}

// context is what foreign lines say about the runs that follow: the
// launcher command, the hosts, exported variables.
type context struct {
	command string
	np      int
	hosts   []string
	ppn     int
	env     map[string]string
	benches []string // benchmark names after the IMB-MPI1 program name
}

var npInName = regexp.MustCompile(`np[_-]?([0-9]+)`)

// exportRe: "export I_MPI_FABRICS=shm:ofi", also after a shell prompt ("$ ").
var exportRe = regexp.MustCompile(`^\s*(?:\S*[$#>%]\s+)?export\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*)`)

// note learns from a line that is not part of a table.
func (c *context) note(line string) {
	if m := exportRe.FindStringSubmatch(line); m != nil {
		if c.env == nil {
			c.env = map[string]string{}
		}
		c.env[m[1]] = m[2]
		return
	}
	f := strings.Fields(line)
	launcher := false
	for i := 0; i < len(f); i++ {
		switch w := f[i]; {
		case strings.HasSuffix(w, "mpirun") || strings.HasSuffix(w, "mpiexec") || w == "srun" ||
			strings.HasPrefix(w, "mpirun.") || strings.HasPrefix(w, "mpiexec."):
			launcher = true
			c.command = strings.Join(f[i:], " ")
			c.benches = nil
		case launcher && (w == "-np" || w == "-n" || w == "--np" || w == "-c") && i+1 < len(f):
			if v, err := strconv.Atoi(f[i+1]); err == nil {
				c.np = v
			}
			i++
		case launcher && (w == "-hosts" || w == "-host" || w == "--host" || w == "-H") && i+1 < len(f):
			c.hosts = nil
			for _, h := range strings.Split(f[i+1], ",") {
				if h, _, _ = strings.Cut(h, ":"); h != "" {
					c.hosts = append(c.hosts, h)
				}
			}
			i++
		case launcher && (w == "-ppn" || w == "--npernode" || w == "-npernode") && i+1 < len(f):
			c.ppn, _ = strconv.Atoi(f[i+1])
			i++
		case launcher && strings.HasSuffix(w, "IMB-MPI1"):
			for _, b := range f[i+1:] {
				if strings.HasPrefix(b, "-") || strings.HasPrefix(b, "#") || b == "|" || b == "2>&1" {
					break
				}
				c.benches = append(c.benches, b)
			}
		}
	}
}

// apply puts the context into a new run and starts afresh.
func (c *context) apply(run *result.Run) {
	if c.command != "" {
		run.Source.Meta["launch"] = c.command
	}
	if len(c.env) > 0 {
		run.Env = c.env
	}
	run.Hosts = c.hosts
	run.WorldSize = c.np // what the launcher was told; the tables may say more
	*c = context{np: c.np, hosts: c.hosts, ppn: c.ppn, benches: c.benches}
}

// locality is what the launch says about where the ranks were.
func (c *context) locality() string {
	if len(c.hosts) > 1 && c.ppn == 1 {
		return result.InterNode
	}
	return ""
}

func newRun(f *File, format Format, line int) *result.Bundle {
	return &result.Bundle{Run: &result.Run{Suite: string(format),
		Source: &result.Source{Format: string(format), File: f.Name, Line: line, Hash: f.Hash, Meta: map[string]string{}}}}
}

func problem(f *File, n int, format string, a ...any) {
	f.Problems = append(f.Problems, &result.SyntaxError{File: f.Name, Line: n, Err: fmt.Errorf(format, a...)})
}

// number reads a token as a float: a measured value, so finite and not
// negative ("nan", "inf" and "-1" are no measurement).
func number(tok []byte) (float64, bool) {
	v, ok := signedNumber(tok)
	return v, ok && v >= 0
}

// signedNumber reads a token as a finite float of either sign.
func signedNumber(tok []byte) (float64, bool) {
	v, err := strconv.ParseFloat(string(tok), 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// count is a size or count read as number: false beyond 2^62 (far beyond
// any message; converting more to int64 would wrap).
func count(v float64) (int64, bool) { return int64(v), v < 1<<62 }

// isNumber reports whether a token starts like a number.
func isNumber(tok []byte) bool {
	return len(tok) > 0 && (tok[0] >= '0' && tok[0] <= '9' || tok[0] == '-' && len(tok) > 1 || tok[0] == '.')
}
