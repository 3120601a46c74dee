package ringtext

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Format is the name of this format in records and messages.
const Format textfmt.Format = "ring"

// Sniff tells whether the start of a file is in this format.
func Sniff(head []byte) bool {
	return bytes.Contains(head, []byte("Ring comm benchmark.")) ||
		bytes.Contains(head, ringLine)
}

// ringLine is the start of a sample line of mpi-comm-bench (and gomb ring).
var ringLine = []byte(sampleLine[:strings.Index(sampleLine, "%")])

type ringState struct {
	f       *textfmt.File
	opt     textfmt.Options
	ctx     textfmt.Context
	run     *result.Bundle
	msg     int64
	samples int
}

// Read parses the file's content r, handing each run to f as it is complete.
func Read(f *textfmt.File, r io.Reader) {
	s := &ringState{f: f, opt: f.Options}
	f.Lines(r, s.line)
	s.close()
}

func (s *ringState) close() {
	if s.run != nil && len(s.run.Results) > 0 {
		s.ctx.Place(s.run.Run, 0)
		s.f.Add(s.run)
	}
	s.run, s.samples = nil, 0
}

func (s *ringState) start(n int) {
	s.close()
	s.run = s.f.NewRun(n)
	s.ctx.Apply(s.run.Run)
	s.run.Run.Tool = result.Tool{Name: "mpi-comm-bench"}
}

func (s *ringState) line(n int, b []byte) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return
	}
	str := string(t)
	switch {
	case str == "Ring comm benchmark.":
		s.start(n)
		return
	case strings.HasPrefix(str, "Message size:"):
		if s.run == nil {
			s.start(n)
		}
		if f := strings.Fields(str); len(f) > 2 {
			s.msg, _ = strconv.ParseInt(f[2], 10, 64)
		}
		s.run.Run.Source.Meta["message_size"] = strings.TrimSpace(strings.TrimPrefix(str, "Message size:"))
		return
	case strings.HasPrefix(str, "Interval:"), strings.HasPrefix(str, "GPU mode:"), strings.HasPrefix(str, "Mem copy local:"):
		if s.run != nil {
			k, v, _ := strings.Cut(str, ":")
			s.run.Run.Source.Meta[strings.ToLower(strings.ReplaceAll(k, " ", "_"))] = strings.TrimSpace(v)
		}
		return
	case strings.HasPrefix(str, "Summary:"), strings.HasPrefix(str, "Duration (send + recv), slowest"),
		strings.HasPrefix(str, "Bandwidth (send + recv), slowest"), strings.HasPrefix(str, "Slowest most often"):
		return // gomb ring's summary: recomputed from the samples, not imported
	}
	i := bytes.Index(t, ringLine)
	if i < 0 {
		s.f.Foreign++
		s.ctx.Note(str)
		return
	}
	if s.run == nil {
		s.start(n)
	}
	// min, max, avg bandwidth (GB/s), then min, max, avg duration (ms)
	var v []float64
	for _, f := range bytes.Fields(t[i:]) {
		if x, ok := textfmt.Number(f); ok {
			v = append(v, x)
		}
	}
	if len(v) != 6 {
		s.f.Problem(n, "ring sample with %d numbers, want 6", len(v))
		return
	}
	for _, x := range v {
		if !textfmt.Plausible(x * 1e3) { // GB/s and ms, stored as MB/s and µs
			s.f.Problem(n, "ring sample value %g %v", x, textfmt.ErrImplausible)
			return
		}
	}
	cold := s.samples == 0 // the first sample includes connection set-up
	r := &result.Result{Suite: ring.Suite, Benchmark: ring.Name, NP: max(s.ctx.NP, s.opt.NP), Groups: 1, Group: -1,
		Bytes: s.msg, Repetitions: 1, Sample: s.samples, Cold: cold,
		TMinUS: v[3] * 1e3, TMaxUS: v[4] * 1e3, TAvgUS: v[5] * 1e3, MBps: v[2] * 1e3, Locality: s.ctx.Locality(0)}
	s.samples++
	s.run.Results = append(s.run.Results, r)
}
