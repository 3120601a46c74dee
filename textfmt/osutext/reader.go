package osutext

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Format is the name of this format in records and messages.
const Format textfmt.Format = "osu"

// Sniff tells whether the start of a file is in this format.
func Sniff(head []byte) bool {
	return bytes.Contains(head, []byte("# OSU MPI")) || bytes.Contains(head, []byte("# gomb One-way Latency Test"))
}

// splitHeader cuts an OSU header ("# Size   Latency (us)") into names.
func splitHeader(h string) ([]*column, bool) {
	h = strings.TrimSpace(strings.TrimPrefix(h, "#"))
	var out []*column
	for h = strings.TrimSpace(h); h != ""; h = strings.TrimSpace(h) {
		found := false
		for _, c := range allColumns {
			if strings.HasPrefix(h, c.name) {
				out = append(out, c)
				h = h[len(c.name):]
				found = true
				break
			}
		}
		if !found {
			return out, false
		}
	}
	return out, len(out) > 0
}

var osuTitle = regexp.MustCompile(`^#\s*(OSU MPI.*? Test|gomb One-way Latency Test)(?:\s+v([0-9][0-9.]*))?\s*$`)

// osuTest finds gomb's test for an OSU title.
func osuTest(title string) *osu.Spec {
	t := strings.ToLower(strings.NewReplacer("-CUDA", "", "-ROCM", "", "-OPENACC", "").Replace(title))
	for _, s := range osu.Specs() {
		if strings.ToLower(s.Title) == t {
			return s
		}
	}
	return nil
}

type osuState struct {
	f    *textfmt.File
	opt  textfmt.Options
	ctx  textfmt.Context
	run  *result.Bundle
	spec *osu.Spec
	cols []*column
	np   int
	rows bool
}

// Read parses the file's content r, handing each run to f as it is complete.
func Read(f *textfmt.File, r io.Reader) {
	s := &osuState{f: f, opt: f.Options, np: f.Options.NP}
	f.Lines(r, s.line)
	s.close()
}

func (s *osuState) close() {
	if s.run != nil && len(s.run.Results) > 0 {
		s.f.Add(s.run)
	}
	s.run, s.spec, s.rows = nil, nil, false
}

func (s *osuState) line(n int, b []byte) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return
	}
	if t[0] == '#' {
		line := string(t)
		if m := osuTitle.FindStringSubmatch(line); m != nil {
			s.close()
			s.run = s.f.NewRun(n)
			s.ctx.Apply(s.run.Run)
			s.run.Run.Tool = result.Tool{Name: "OSU Micro-Benchmarks", Version: m[2]}
			s.run.Run.Source.Meta["title"] = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			if s.spec = osuTest(m[1]); s.spec == nil {
				s.f.Problem(n, "unknown OSU test %q", m[1])
			} else {
				s.run.Run.Source.Meta["test"] = s.spec.Name
			}
			return
		}
		if s.run == nil {
			s.f.Foreign++
			return
		}
		body := strings.TrimSpace(line[1:])
		if cols, ok := splitHeader(body); ok && (cols[0] == colSize || s.spec != nil && s.spec.NoSize) {
			s.cols, s.rows = cols, s.spec != nil
			return
		}
		if k, v, ok := strings.Cut(body, ":"); ok {
			s.run.Run.Source.Meta[strings.TrimSpace(k)] = strings.TrimSuffix(strings.TrimSpace(v), ".")
		} else if strings.HasPrefix(body, "[ pairs:") {
			s.run.Run.Source.Meta["pairs"] = body
			if f := strings.Fields(body); len(f) > 2 {
				if p, err := strconv.Atoi(f[2]); err == nil {
					s.np = 2 * p
				}
			}
		} else {
			s.run.Run.Source.Meta["note"] = body
		}
		return
	}
	if s.rows && (textfmt.IsNumber(t) || t[0] == '+') {
		s.row(n, t)
		return
	}
	s.f.Foreign++
	s.ctx.Note(string(t))
}

// row reads one OSU row.
func (s *osuState) row(n int, t []byte) {
	tok := bytes.Fields(t)
	if len(tok) != len(s.cols) {
		s.f.Problem(n, "%s: %d values for %d columns", s.spec.Name, len(tok), len(s.cols))
		return
	}
	sp := s.spec
	np := s.np
	if np == 0 {
		np = max(s.ctx.NP, sp.ExactRanks)
	}
	r := &result.Result{Suite: osu.Suite, Benchmark: sp.Name, NP: np, Groups: 1, Group: -1, Locality: s.ctx.Locality()}
	for k, c := range s.cols {
		if err := c.get(r, tok[k]); err != nil {
			name := c.name
			if c == colSize {
				name = "size"
			}
			s.f.Problem(n, "%s: %s %q %v", sp.Name, name, tok[k], err)
			return
		}
	}
	if sp.Kind == osu.NonBlocking {
		nbc(r)
	}
	if sp.Kind == osu.OneWay {
		oneWay(r)
	}
	// Without -f OSU prints the average only; min and max are unknown.
	if r.TMinUS == 0 && r.TMaxUS == 0 {
		r.TMinUS, r.TMaxUS = r.TAvgUS, r.TAvgUS
	}
	s.run.Results = append(s.run.Results, r)
}
