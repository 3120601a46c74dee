// Package textfmt holds what gomb's text formats share: the report of
// one input file (File: its runs, problems with file:line, foreign lines),
// the options a user adds to imported runs, the shell context around a
// log's tables, and line and number reading. Each format is a package of
// its own with its reader and writer side by side (imbtext, osutext,
// ringtext); package importer picks one by the content of a file.
//
// textfmt and its format packages are part of gomb's public API (see
// package result); their writers take gomb's internal tables, so outside
// gomb they are readers.
package textfmt

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/gomb-hpc/gomb/result"
)

// Format names an input format ("imb", "osu", "ring", "gomb").
type Format string

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
	// Notes are what the user should know of runs read all the same
	// (*result.SyntaxError, Kept): a process count the log does not say
	Notes   []error
	Foreign int     // lines that belong to no table
	Count   int     // runs found (with emit, none is kept in Runs)
	Options Options // what the user adds to every run

	emit func(*result.Bundle) error // nil: keep the runs in Runs
	err  error                      // the first error of emit
	buf  []byte                     // digest's, kept from run to run
	// npSaid: a run whose process count the log does not say was named
	// (once a file)
	npSaid bool
	// Unended is the number of the file's last line where no newline
	// ends it (0: none, or not reached yet); Lines sets it before handing
	// that line on.
	Unended int
}

// NewFile starts the report of one input. With emit, each run is handed
// on as soon as it is complete and none is kept in Runs.
func NewFile(name string, format Format, hash string, opt Options, emit func(*result.Bundle) error) *File {
	return &File{Name: name, Format: format, Hash: hash, Options: opt, emit: emit}
}

// Err is the first error emit returned.
func (f *File) Err() error { return f.err }

// Add takes a run a parser has finished: numbered, completed (ids,
// labels, counts), its results checked as every reader checks them (one
// that fails is a problem at the run's line, and dropped: gomb never
// writes a record it would refuse to read), then kept or handed on.
func (f *File) Add(r *result.Bundle) {
	r.Run.Source.Index = f.Count
	r.Run.Source.Digest, f.buf = digest(r, f.buf[:0])
	finish(r, f.Options)
	kept := r.Results[:0]
	for _, x := range r.Results {
		if err := x.Validate(); err != nil {
			f.Problem(r.Run.Source.Line, "%v", err)
			continue
		}
		kept = append(kept, x)
	}
	r.Results = kept
	for _, x := range r.Results {
		if x.NP == 0 && !f.npSaid {
			f.npSaid = true
			f.Notes = append(f.Notes, &result.SyntaxError{File: f.Name, Line: r.Run.Source.Line, Kept: true,
				Err: fmt.Errorf("%s: the log does not say how many processes ran it: imported with np 0 (unknown), as are any later runs alike; gomb import -np N gives it", x.Benchmark)})
		}
	}
	f.Keep(r)
}

// Keep counts a complete run and keeps it in Runs, or hands it to emit.
func (f *File) Keep(r *result.Bundle) {
	f.Count++
	switch {
	case f.emit == nil:
		f.Runs = append(f.Runs, r)
	case f.err == nil:
		f.err = f.emit(r)
	}
}

// finish fills what every imported run carries: ids, labels, counts.
func finish(r *result.Bundle, opt Options) {
	run := r.Run
	run.Type, run.Schema = result.TypeRun, result.Schema
	run.RunID = fmt.Sprintf("%.16s-%d", run.Source.Digest, run.Source.Index)
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

// digest is the sha256 of a run as read from its log: its format, what
// the log said of it and the numbers of its results, before finish adds
// the user's labels and options and the ids. The bytes are laid out by
// hand, compactly, rather than encoded: an import digests every run it
// reads.
func digest(r *result.Bundle, b []byte) (string, []byte) {
	str := func(b []byte, s string) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	b = str(b, r.Run.Source.Format)
	for _, k := range slices.Sorted(maps.Keys(r.Run.Source.Meta)) {
		b = str(str(b, k), r.Run.Source.Meta[k])
	}
	for _, x := range r.Results {
		b = str(str(b, x.Benchmark), x.Status)
		for _, v := range [...]int64{int64(x.NP), int64(x.Groups), int64(x.Group), x.Bytes, int64(x.Repetitions), int64(x.Sample)} {
			b = binary.AppendVarint(b, v)
		}
		for i, v := range [...]float64{x.TMinUS, x.TMaxUS, x.TAvgUS, x.MBps, x.MsgPerSec, x.NeededGB, x.P50US, x.P90US, x.P99US} {
			if v != 0 {
				b = binary.LittleEndian.AppendUint64(append(b, byte(i)), math.Float64bits(v))
			}
		}
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b
}

// NewRun starts a run of the file's format that begins at line.
func (f *File) NewRun(line int) *result.Bundle {
	return &result.Bundle{Run: &result.Run{Suite: string(f.Format),
		Source: &result.Source{Format: string(f.Format), File: f.Name, Line: line, Hash: f.Hash, Meta: map[string]string{}}}}
}

// Tables cuts a run's results into tables: consecutive results of one
// benchmark at one process count and group count.
func Tables(results []*result.Result) [][]*result.Result {
	var out [][]*result.Result
	for i, r := range results {
		if i > 0 {
			p := results[i-1]
			if p.Benchmark == r.Benchmark && p.Mode == r.Mode && p.NP == r.NP && p.Groups == r.Groups {
				out[len(out)-1] = append(out[len(out)-1], r)
				continue
			}
		}
		out = append(out, []*result.Result{r})
	}
	return out
}
