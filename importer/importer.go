// Package importer turns existing benchmark output into gomb records: IMB-MPI1
// logs (2018–2021.x, and gomb's IMB tables), OSU Micro-Benchmarks 5.x–7.x
// output (and gomb's OSU tables), mpi-comm-bench ring output (and gomb's),
// and gomb's own JSON Lines records.
//
// The steps: Sniff picks the format from the start of the file; the
// format's package (textfmt/imbtext, osutext, ringtext: reader beside
// writer) walks the lines, keeps every piece of metadata the log
// carries (date, MPI version, calling sequence, launcher command, hosts,
// exported environment), cuts the file into runs, and turns each table row
// into a result.Result. A malformed row is reported with file:line and the
// rest goes on; lines that belong to no table (launcher warnings, prose)
// are counted and skipped.
//
// Package importer is part of gomb's public API (see package result): a
// program of your own can read any log gomb reads into gomb's records.
package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

// The formats.
const (
	Records textfmt.Format = result.RecordsFormat // gomb's JSON Lines records
	IMB     textfmt.Format = imbtext.Format       // IMB-MPI1 text (and gomb imb's)
	OSU     textfmt.Format = osutext.Format       // OSU Micro-Benchmarks text (and gomb osu's)
	Ring    textfmt.Format = ringtext.Format      // mpi-comm-bench output (and gomb ring's)
)

// The importer hands the reading to the formats' packages; their types
// are the importer's.
type (
	File    = textfmt.File
	Options = textfmt.Options
)

// Sniff names the format of a file from its content; "" if it is none of
// gomb's inputs.
func Sniff(data []byte) textfmt.Format {
	head := data
	if len(head) > 1<<16 {
		head = head[:1<<16]
	}
	if isRecord(head) {
		return Records
	}
	switch {
	case imbtext.Sniff(head):
		return IMB
	case osutext.Sniff(head):
		return OSU
	case ringtext.Sniff(head):
		return Ring
	}
	return ""
}

// isRecord tells whether the first line of head is a gomb record: a JSON
// object whose schema is gomb's, however the JSON is spaced. The line may
// go on past head (a run record of thousands of ranks): the object is read
// key by key until its schema, which gomb writes second.
func isRecord(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "schema" {
			v, err := dec.Token()
			s, ok := v.(string)
			return err == nil && ok && strings.HasPrefix(s, "gomb/")
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
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
// whole); without, the runs are in the File. A path that is no regular
// file (a pipe, /dev/stdin, a process substitution) cannot be read twice:
// its content is read once, into memory, as stdin's is.
func ImportFile(path, name string, opt Options, emit func(*result.Bundle) error) (*File, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := Import(data, name, opt)
		if err != nil || emit == nil {
			return f, err
		}
		for _, r := range f.Runs {
			if err := emit(r); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		f.Runs = nil
		return f, nil
	}
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
	h := sha256.New()
	seen := &formats{}
	if err := readAll(open, func(r io.Reader) error { _, err := io.Copy(io.MultiWriter(h, seen), r); return err }); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	format := Sniff(head)
	if format == "" && len(seen.order) > 0 {
		// a job's output before its first table (modules loaded, a
		// build's log, the MPI's debug lines) may run past the head:
		// the first format the whole content shows
		format = seen.order[0]
	}
	if format == "" {
		return nil, fmt.Errorf("%s: not an IMB-MPI1 log, OSU output, mpi-comm-bench output or gomb record file (no IMB or OSU table, ring sample or gomb record anywhere in its %d bytes)", name, seen.n)
	}
	if m := textfmt.NPInName.FindStringSubmatch(filepath.Base(name)); m != nil && opt.NP == 0 {
		opt.NP, _ = strconv.Atoi(m[1]) // "imb-np64.log": the processes started
	}
	f := textfmt.NewFile(name, format, hex.EncodeToString(h.Sum(nil)), opt, emit)
	// A job script's output may hold several formats one after another:
	// each is read by its own reader, the one the file starts with first.
	read := []textfmt.Format{format}
	if format != Records {
		for _, o := range []textfmt.Format{IMB, OSU, Ring} {
			if o != format && seen.has[o] {
				read = append(read, o)
			}
		}
	}
	var sections map[textfmt.Format][]byte
	if len(read) > 1 {
		if sections, err = split(open, format); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	foreign := -1
	for _, fm := range read {
		f.Format, f.Foreign = fm, 0 // the runs a reader starts are of its format
		in := open
		if sections != nil { // each reader sees its own sections, the rest blank
			in = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(sections[fm])), nil }
		}
		err = readAll(in, func(r io.Reader) error {
			switch fm {
			case Records:
				importRecords(f, r)
			case IMB:
				imbtext.Read(f, r)
			case OSU:
				osutext.Read(f, r)
			case Ring:
				ringtext.Read(f, r)
			}
			return nil
		})
		if err == nil {
			err = f.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if foreign < 0 || f.Foreign < foreign {
			foreign = f.Foreign // lines none of the readers took
		}
	}
	f.Format, f.Foreign = format, foreign
	return f, nil
}

// split cuts content of several text formats into one copy per format
// that holds its sections' lines and blank lines for the others (so line
// numbers stay the file's). A section begins at a line that only its
// format has (IMB's title or table header, OSU's title, a ring sample);
// what precedes the first is first's.
func split(open func() (io.ReadCloser, error), first textfmt.Format) (map[textfmt.Format][]byte, error) {
	var data []byte
	err := readAll(open, func(r io.Reader) (err error) {
		data, err = io.ReadAll(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := map[textfmt.Format][]byte{}
	cur := first
	for line := range bytes.Lines(data) {
		switch {
		case imbtext.Sniff(line):
			cur = IMB
		case osutext.Sniff(line):
			cur = OSU
		case ringtext.Sniff(line):
			cur = Ring
		}
		for _, fm := range []textfmt.Format{IMB, OSU, Ring} {
			if fm == cur {
				out[fm] = append(out[fm], line...)
			} else {
				out[fm] = append(out[fm], '\n')
			}
		}
	}
	return out, nil
}

// formats notes which text formats appear anywhere in what is written to
// it (their Sniff on each piece, and on the seams between pieces), in the
// order they first appear (of those first seen in one piece, IMB, OSU,
// then the ring), and how many bytes it saw.
type formats struct {
	has   map[textfmt.Format]bool
	order []textfmt.Format
	tail  []byte // the end of the last piece: a marker may straddle two
	n     int64
}

func (fs *formats) Write(p []byte) (int, error) {
	if fs.has == nil {
		fs.has = map[textfmt.Format]bool{}
	}
	for _, piece := range [][]byte{append(fs.tail, p[:min(len(p), 64)]...), p} {
		for _, f := range []struct {
			format textfmt.Format
			sniff  func([]byte) bool
		}{{IMB, imbtext.Sniff}, {OSU, osutext.Sniff}, {Ring, ringtext.Sniff}} {
			if !fs.has[f.format] && f.sniff(piece) {
				fs.has[f.format] = true
				fs.order = append(fs.order, f.format)
			}
		}
	}
	fs.tail = append(fs.tail[:0], p[max(0, len(p)-64):]...)
	fs.n += int64(len(p))
	return len(p), nil
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
