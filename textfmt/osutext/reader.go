package osutext

import (
	"bytes"
	"io"
	"path/filepath"
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
	return bytes.Contains(head, []byte("# OSU MPI")) || bytes.Contains(head, []byte("# OSU One Sided MPI")) ||
		bytes.Contains(head, []byte("# gomb One-way Latency Test"))
}

// splitHeader cuts an OSU header ("# Size   Latency (us)") into names.
func splitHeader(h string) ([]*column, bool) {
	h = strings.TrimSpace(strings.TrimPrefix(h, "#"))
	var out []*column
	for h = strings.TrimSpace(h); h != ""; h = strings.TrimSpace(h) {
		if m := tailHead.FindStringSubmatch(h); m != nil {
			p, err := strconv.Atoi(m[1])
			if err != nil || p > 100 {
				return out, false
			}
			out = append(out, tailColumn(p, strings.HasPrefix(m[2], "BW")))
			h = h[len(m[0]):]
			continue
		}
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

// OSU 4.x titles its one-sided tests "OSU One Sided MPI_Get latency Test".
var osuTitle = regexp.MustCompile(`^#\s*(OSU MPI.*? Test|OSU One Sided MPI.*? Test|gomb One-way Latency Test)(?:\s+v([0-9][0-9.]*))?\s*$`)

// osuTest finds gomb's test for an OSU title.
func osuTest(title string) *osu.Spec {
	t := strings.ToLower(strings.NewReplacer("-CUDA", "", "-ROCM", "", "-OPENACC", "", "One Sided ", "").Replace(title))
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
	// last: the last value of the table's row before (nil: none yet),
	// against which a last row cut short by the end of the file shows
	last []byte
	// np: the processes the test's own lines say (mbw_mr's pairs, gomb's
	// fan line), 0 when they say none: never carried to the next test
	np   int
	rows bool
	// head: the line of the test's title or column header while no row
	// followed; problems: the file's problems when the test began
	head, problems int
	// threads: osu_latency_mt's thread lines (osu_latency_mp's process
	// lines), seen before its title
	threads map[string]string
	// nbr: the neighbourhood collectives' lines, seen before the title
	// (pending) and then the table's topology (topo)
	pending, topo *result.Topology
}

// The neighbourhood collectives' lines before their title.
var (
	dimsLine   = regexp.MustCompile(`^Dimensions size =((?:\s+[0-9]+)+)\s*$`)
	createLine = regexp.MustCompile(`^Time took to create topology graph:\s*([0-9.]+) us\.?$`)
)

// nbrLine reads a neighbourhood line into the pending topology; false
// when the line is none.
func (s *osuState) nbrLine(n int, line string) bool {
	if m := dimsLine.FindStringSubmatch(line); m != nil {
		s.pending = &result.Topology{Kind: "cart"}
		for _, f := range strings.Fields(m[1]) {
			d, err := strconv.Atoi(f)
			if err != nil || d < 1 {
				s.f.Problem(n, "dimension %q", f)
				return true
			}
			s.pending.Dims = append(s.pending.Dims, d)
		}
		return true
	}
	if m := createLine.FindStringSubmatch(line); m != nil {
		if s.pending == nil {
			s.pending = &result.Topology{Kind: "graph"} // OSU prints no dimensions for a graph
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			s.f.Problem(n, "topology creation time %q", m[1])
			return true
		}
		s.pending.CreateUS = v
		return true
	}
	return false
}

// threadLine is one of osu_latency_mt's or osu_latency_mp's lines before
// its title.
var threadLine = regexp.MustCompile(`^#\s*(Number of (?:Sender threads|Receiver threads|forked processes in sender|forked processes in receiver)):\s*([0-9]+)\s*$`)

// ddtLine is OSU's -D line before a point-to-point title.
var ddtLine = regexp.MustCompile(`^#\s*Set Derived DataTypes block_length to ([0-9]+), stride to ([0-9]+)\s*$`)

// Read parses the file's content r, handing each run to f as it is complete.
func Read(f *textfmt.File, r io.Reader) {
	s := &osuState{f: f, opt: f.Options}
	f.Lines(r, s.line)
	s.close()
}

func (s *osuState) close() {
	if s.run != nil && len(s.run.Results) > 0 {
		s.ctx.Place(s.run.Run, s.run.Results[0].NP)
		s.f.Add(s.run)
	} else if s.run != nil && s.spec != nil && s.head > 0 && len(s.f.Problems) == s.problems {
		// a test that crashed or was killed: its header, then the
		// launcher's error text or the end of the file
		s.f.Problem(s.head, "%s: a header with no results (the test did not finish?)", s.spec.Name)
	}
	s.run, s.spec, s.cols, s.rows, s.np, s.head = nil, nil, nil, false, 0, 0
}

func (s *osuState) line(n int, b []byte) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return
	}
	if t[0] == '#' {
		line := string(t)
		if strings.HasPrefix(line, "#SBATCH") { // the job script's: its nodes
			s.f.Foreign++
			s.ctx.Note(line)
			return
		}
		if m := ddtLine.FindStringSubmatch(line); m != nil {
			// -D's line comes before the title: the next run's
			if s.threads == nil {
				s.threads = map[string]string{}
			}
			s.threads["ddt"] = m[1] + ":" + m[2]
			return
		}
		if m := threadLine.FindStringSubmatch(line); m != nil {
			if s.run != nil && s.cols == nil && s.spec != nil && (s.spec.Threads || s.spec.Processes) {
				// OSU 5's come after the title: the open test's
				s.run.Run.Source.Meta[m[1]] = m[2]
				return
			}
			// osu_latency_mt's and _mp's lines come before the title (OSU
			// 7's, gomb's): the next run's
			if s.threads == nil {
				s.threads = map[string]string{}
			}
			s.threads[m[1]] = m[2]
			return
		}
		if m := osuTitle.FindStringSubmatch(line); m != nil {
			s.close()
			s.run = s.f.NewRun(n)
			s.ctx.Apply(s.run.Run)
			s.run.Run.Tool = result.Tool{Name: toolName, Version: m[2]}
			s.run.Run.Source.Meta["title"] = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			for k, v := range s.threads {
				s.run.Run.Source.Meta[k] = v
			}
			s.threads = nil
			s.spec, s.topo, s.pending = osuTest(m[1]), s.pending, nil
			s.head, s.problems = n, len(s.f.Problems)
			if s.spec != nil && s.spec.Name == "alltoallw" && s.topo != nil {
				// osu_neighbor_alltoallw prints osu_alltoallw's title: its
				// topology lines tell them apart
				s.spec, _ = osu.Lookup("neighbor_alltoallw")
			}
			if s.spec != nil && !s.spec.Neighbour() {
				s.topo = nil
			}
			if s.spec == nil {
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
		if s.header(n, body) {
			return
		}
		switch k, v, ok := strings.Cut(body, ":"); {
		case strings.HasPrefix(body, "[ fan-"):
			s.gombFan(n, body)
		case strings.HasPrefix(body, "[ pairs:"):
			s.run.Run.Source.Meta["pairs"] = body
			if f := strings.Fields(body); len(f) > 2 {
				if p, err := strconv.Atoi(f[2]); err == nil {
					s.np = 2 * p
				}
			}
		case ok:
			s.run.Run.Source.Meta[strings.TrimSpace(k)] = strings.TrimSuffix(strings.TrimSpace(v), ".")
		default:
			s.run.Run.Source.Meta["note"] = body
		}
		return
	}
	if s.nbrLine(n, string(t)) {
		return
	}
	if s.spec != nil && s.spec.Kind == osu.Startup && s.startup(n, string(t)) {
		return
	}
	if s.rows && (textfmt.IsNumber(t) && (t[0] != '-' || t[1] >= '0' && t[1] <= '9' || t[1] == '.') || t[0] == '+') {
		// (not a launcher's rule "-----", nor an option "--mca" on a line of its own)
		s.row(n, t)
		return
	}
	if s.run != nil && s.spec != nil && !s.rows {
		// OSU 5's tests without a size head their table without a "#"
		// ("       Overall(us)       Compute(us) ...")
		if s.spec.NoSize && s.header(n, string(t)) {
			return
		}
		if s.cols == nil && allNumbers(t) { // values under no header gomb reads: said, not dropped
			s.f.Problem(n, "%s: values before a column header gomb reads", s.spec.Name)
			return
		}
	}
	s.f.Foreign++
	s.ctx.Note(string(t))
}

// header reads a column header line (without its "#"); false when the
// line is none.
func (s *osuState) header(n int, body string) bool {
	cols, ok := splitHeader(body)
	if !ok || cols[0] != colSize && (s.spec == nil || !s.spec.NoSize) {
		return false
	}
	s.cols, s.rows, s.last = cols, s.spec != nil, nil
	if s.rows {
		s.head = n
	}
	if cols[len(cols)-1] == colTransmit && s.run.Run.Source.Meta["ddt"] == "" {
		// -D without its line (the collectives print none): block
		// length and stride, OSU's defaults
		s.run.Run.Source.Meta["ddt"] = "4:8"
	}
	if s.spec != nil && s.spec.Name == "bw" && len(cols) > 1 && cols[1] == colAvg {
		s.osuFan(n, cols)
	}
	return true
}

// allNumbers tells whether a line is numbers only, as a table's row is.
func allNumbers(t []byte) bool {
	f := bytes.Fields(t)
	for _, x := range f {
		if _, ok := textfmt.SignedNumber(x); !ok {
			return false
		}
	}
	return len(f) > 0
}

// fanLine is gomb's line under the fan tests' title.
var fanLine = regexp.MustCompile(`^\[ (fan-in|fan-out) \](?: \[ nodes: ([0-9]+) \] \[ processes per node: ([0-9]+) \])?`)

// gombFan reads gomb's fan line: the test and, where it says, the nodes
// and processes per node.
func (s *osuState) gombFan(n int, body string) {
	s.run.Run.Source.Meta["fan"] = body
	m := fanLine.FindStringSubmatch(body)
	if m == nil {
		s.f.Problem(n, "unreadable fan layout %q", body)
		return
	}
	s.spec, _ = osu.Lookup("bw_" + strings.Replace(m[1], "-", "_", 1))
	s.run.Run.Source.Meta["test"] = s.spec.Name
	if m[2] != "" {
		nodes, _ := strconv.Atoi(m[2])
		ppn, _ := strconv.Atoi(m[3])
		s.np = nodes * ppn
	}
}

// osuFan reads OSU 7.4's fan tests, which print osu_bw's title and head
// their bandwidth column "Avg Latency(us)": the file's name tells fan-in
// from fan-out, as nothing in the text does.
func (s *osuState) osuFan(n int, cols []*column) {
	base := strings.ToLower(filepath.Base(s.f.Name))
	var name string
	switch {
	case strings.Contains(base, "fan_in") || strings.Contains(base, "fan-in"):
		name = "bw_fan_in"
	case strings.Contains(base, "fan_out") || strings.Contains(base, "fan-out"):
		name = "bw_fan_out"
	default:
		s.f.Problem(n, "an OSU 7.4 fan-in or fan-out table (osu_bw's title over \"Avg Latency(us)\"): "+
			"the text does not say which; name the file after the test (fan_in or fan_out in its name)")
		s.rows = false
		return
	}
	s.spec, _ = osu.Lookup(name)
	s.run.Run.Source.Meta["test"] = name
	cols[1] = colBW // MB/s, whatever OSU 7.4 calls it
}

// osu_init's and osu_hello's lines.
var (
	initLine  = regexp.MustCompile(`^nprocs: ([0-9]+), min: ([0-9]+) ms, max: ([0-9]+) ms, avg: ([0-9]+) ms$`)
	helloLine = regexp.MustCompile(`^This is a test with ([0-9]+) processes$`)
)

// startup reads the one line of osu_init or osu_hello (the times in whole
// milliseconds, as OSU prints them); false when the line is not it.
func (s *osuState) startup(n int, line string) bool {
	r := &result.Result{Suite: osu.Suite, Benchmark: s.spec.Name, Groups: 1, Group: -1, Repetitions: 1,
		Status: result.StatusOK}
	var v [4]int64
	if m := initLine.FindStringSubmatch(line); m != nil && s.spec.Name == "init" {
		for i := range v {
			if v[i], _ = strconv.ParseInt(m[i+1], 10, 64); v[i] < 0 {
				return false
			}
		}
		r.TMinUS, r.TMaxUS, r.TAvgUS = float64(v[1])*1e3, float64(v[2])*1e3, float64(v[3])*1e3
	} else if m := helloLine.FindStringSubmatch(line); m != nil && s.spec.Name == "hello" {
		v[0], _ = strconv.ParseInt(m[1], 10, 64)
	} else {
		return false
	}
	if v[0] < 1 || v[0] > 1<<24 {
		s.f.Problem(n, "%s: %d processes", s.spec.Name, v[0])
		return true
	}
	r.NP = int(v[0])
	r.Locality = s.ctx.Locality(r.NP)
	s.run.Results = append(s.run.Results, r)
	s.head = 0
	return true
}

// row reads one OSU row.
func (s *osuState) row(n int, t []byte) {
	s.head = 0
	tok := bytes.Fields(t)
	if len(tok) != len(s.cols) && !allNumbers(t) {
		// prose that begins with a number ("1. `com.hooks` may vary", a
		// documentation page's footnote after a table): no row of it
		s.f.Foreign++
		return
	}
	if len(tok) != len(s.cols) {
		s.f.Problem(n, "%s: %d values for %d columns", s.spec.Name, len(tok), len(s.cols))
		return
	}
	last := tok[len(tok)-1]
	if s.f.CutShort(n, last, s.last) {
		s.f.Problem(n, "%s: the file ends inside this row (no newline, and its last value %q has fewer decimals than the row before's %q): a value cut short, not stored", s.spec.Name, last, s.last)
		return
	}
	s.last = append(s.last[:0:0], last...)
	sp := s.spec
	// the test's own lines; else the count the test runs at (OSU's
	// point-to-point tests refuse any other); else the launch line's;
	// else the user's or the file name's
	np := s.np
	switch {
	case np > 0:
	case sp.ExactRanks > 0:
		np = sp.ExactRanks
	case s.ctx.NP > 0:
		np = s.ctx.NP
	default:
		np = s.opt.NP
	}
	if np == 0 && s.topo != nil && len(s.topo.Dims) > 0 { // a grid holds every rank
		np = 1
		for _, d := range s.topo.Dims {
			np *= d
		}
	}
	r := &result.Result{Suite: osu.Suite, Benchmark: sp.Name, NP: np, Groups: 1, Group: -1, Locality: s.ctx.Locality(np)}
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
	if s.topo != nil {
		tp := *s.topo
		r.Topology = &tp
	}
	// Without -f OSU prints the average only; min and max are unknown.
	if r.TMinUS == 0 && r.TMaxUS == 0 {
		r.TMinUS, r.TMaxUS = r.TAvgUS, r.TAvgUS
	}
	s.run.Results = append(s.run.Results, r)
}
