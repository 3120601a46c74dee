package osutext

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/bench/osu"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Format is the name of this format in records and messages.
const Format textfmt.Format = "osu"

// Sniff tells whether the start of a file is in this format.
func Sniff(head []byte) bool {
	return bytes.Contains(head, []byte("# OSU MPI")) || bytes.Contains(head, []byte("# gomb One-way Latency Test"))
}

// osuColumns are the column names OSU 5.x–7.x and gomb print, longest
// first where one begins another.
var osuColumns = []string{
	"Bandwidth (MB/s)", "Latency (us)", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
	"Iterations", "Messages/s", "MB/s", "Overall(us)", "Compute(us)", "Coll. Init(us)", "MPI_Test(us)",
	"MPI_Wait(us)", "Pure Comm.(us)", "Min Comm.(us)", "Max Comm.(us)", "Overlap(%)", "Validation",
	"P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)", "RTT/2 (us)", "0->1 (us)", "1->0 (us)",
	"+-Sync (us)", "Size",
}

// splitHeader cuts an OSU header ("# Size   Latency (us)") into names.
func splitHeader(h string) ([]string, bool) {
	h = strings.TrimSpace(strings.TrimPrefix(h, "#"))
	var out []string
	for h = strings.TrimSpace(h); h != ""; h = strings.TrimSpace(h) {
		found := false
		for _, c := range osuColumns {
			if strings.HasPrefix(h, c) {
				out = append(out, c)
				h = h[len(c):]
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
	cols []string
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
		if cols, ok := splitHeader(body); ok && (cols[0] == "Size" || s.spec != nil && s.spec.NoSize) {
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
	var nb result.NBC
	var ow result.OneWay
	for k, c := range s.cols {
		if c == "Validation" {
			r.Check = &result.Check{Passed: string(tok[k]) == "Pass"}
			if !r.Check.Passed {
				r.Check.Defects = 1
			}
			continue
		}
		parse, want := textfmt.Number, "a number ≥ 0"
		if c == "0->1 (us)" || c == "1->0 (us)" {
			// one-way times through synchronised clocks: a clock error can
			// make one negative, and that is worth keeping
			parse, want = textfmt.SignedNumber, "a number"
		}
		v, ok := parse(tok[k])
		if !ok {
			s.f.Problem(n, "%s: %s %q is not %s", sp.Name, c, tok[k], want)
			return
		}
		switch c {
		case "Size":
			if r.Bytes, ok = textfmt.AsCount(v); !ok {
				s.f.Problem(n, "%s: size %q is out of range", sp.Name, tok[k])
				return
			}
		case "Latency (us)", "Avg Latency(us)":
			r.TAvgUS = v
		case "Min Latency(us)":
			r.TMinUS = v
		case "Max Latency(us)":
			r.TMaxUS = v
		case "Iterations":
			r.Repetitions = int(v)
		case "Bandwidth (MB/s)", "MB/s":
			r.MBps = v
		case "Messages/s":
			r.MsgPerSec = v
		case "Overall(us)":
			nb.OverallUS, r.TAvgUS = v, v
		case "Compute(us)":
			nb.ComputeUS = v
		case "Coll. Init(us)":
			nb.InitUS = v
		case "MPI_Test(us)":
			nb.TestUS = v
		case "MPI_Wait(us)":
			nb.WaitUS = v
		case "Pure Comm.(us)":
			nb.PureUS = v
		case "Min Comm.(us)":
			nb.MinCommUS = v
		case "Max Comm.(us)":
			nb.MaxCommUS = v
		case "Overlap(%)":
			nb.OverlapPct = v
		case "P50 Tail Lat(us)":
			r.P50US = v
		case "P90 Tail Lat(us)":
			r.P90US = v
		case "P99 Tail Lat(us)":
			r.P99US = v
		case "RTT/2 (us)":
			ow.HalfRTTUS, r.TAvgUS = v, v
		case "0->1 (us)":
			ow.ForwardUS = v
		case "1->0 (us)":
			ow.BackwardUS = v
		case "+-Sync (us)":
			ow.ErrorUS = v
		}
	}
	if sp.Kind == osu.NonBlocking {
		r.NBC = &nb
	}
	if sp.Kind == osu.OneWay {
		r.OneWay = &ow
	}
	// Without -f OSU prints the average only; min and max are unknown.
	if r.TMinUS == 0 && r.TMaxUS == 0 {
		r.TMinUS, r.TMaxUS = r.TAvgUS, r.TAvgUS
	}
	s.run.Results = append(s.run.Results, r)
}
