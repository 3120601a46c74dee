package imbtext

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/mt"
	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

// Format is the name of this format in records and messages.
const Format textfmt.Format = "imb"

// Sniff tells whether the start of a file is in this format.
func Sniff(head []byte) bool {
	return bytes.Contains(head, []byte("MPI Benchmarks")) || bytes.Contains(head, []byte("IMB-MPI1 2021")) ||
		bytes.Contains(head, []byte(colReps.name))
}

// singleTransfer: IMB's single-transfer benchmarks run with 2 active
// processes whatever the launch says.
func singleTransfer(name string) bool {
	s, ok := imb.Lookup(imb.Suite, name)
	return ok && s.Family == imb.SingleTransfer
}

// imbState walks an IMB-MPI1 log.
type imbState struct {
	f   *textfmt.File
	opt textfmt.Options
	ctx textfmt.Context
	run *result.Bundle
	// suite: the IMB suite the title line names (imb.SuiteNBC for an
	// "MPI-NBC part"); "" before one, when rows take the suite of their
	// benchmark's name
	suite string

	finalized bool // "# All processes entering MPI_Finalize" seen
	callSeq   bool // the next "#" line is the calling sequence
	listing   bool // inside "# List of Benchmarks to run:"
	benchList []string

	tok [][]byte // the fields of the row being read, reused
	// last: the last value of the table's row before (nil: none yet),
	// against which a last row cut short by the end of the file shows
	last []byte

	bench      string // of the current table
	mode       string // its "MODE:" line, as result.Mode
	np, idle   int
	groups     int
	headerSeen bool // "# Benchmarking" since the last table
	cols       []string
	inTable    bool
	seen       map[string]bool // benchmark/np/group tables of the current run
	largeFrom  int64           // gomb's "# from N bytes on: MPI-4 large-count calls" in this table
	// gomb's "# confirm: BENCH tripped ...: repeat K of N": the rows of
	// BENCH from there on are its K-th re-run
	repeatOf string
	repeat   int
	// head: the line of the current table's "# Benchmarking" or column
	// header while no row followed it (0: none, or rows came)
	head int
}

// Read parses the file's content r, handing each run to f as it is complete.
func Read(f *textfmt.File, r io.Reader) {
	s := &imbState{f: f, opt: f.Options}
	f.Lines(r, s.line)
	s.close()
}

// start opens a new run at line n.
func (s *imbState) start(n int) {
	s.close()
	s.run = s.f.NewRun(n)
	s.ctx.Apply(s.run.Run)
	s.finalized = false
	s.suite = programSuite(s.ctx.Program) // a title line says better
	if s.suite != "" {
		s.run.Run.Suite = s.suite
	}
	s.seen = map[string]bool{}
	s.benchList = nil
	s.repeatOf, s.repeat = "", 0
}

func (s *imbState) close() {
	s.unfinished()
	if s.run == nil {
		return
	}
	if len(s.benchList) > 0 {
		s.run.Run.Source.Meta["benchmarks"] = strings.Join(s.benchList, " ")
	}
	if len(s.run.Results) > 0 || len(s.run.Run.Source.Meta) > 0 {
		world := s.run.Run.WorldSize
		for _, r := range s.run.Results {
			world = max(world, r.NP)
		}
		s.ctx.Place(s.run.Run, world)
		s.f.Add(s.run)
	}
	s.run = nil
	s.inTable = false
}

func (s *imbState) line(n int, b []byte) {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0:
		// -multi 1 tables have a blank line between sizes
		s.inTable = s.inTable && len(s.cols) > 0 && s.cols[0] == groupColumn
		s.listing = false
	case t[0] != '#':
		s.plain(n, t)
	default:
		s.comment(n, t, strings.TrimSpace(string(t[1:])))
	}
}

// plain reads a line that is no comment: a row, a column header at the
// end of a pasted command, or a foreign line.
func (s *imbState) plain(n int, t []byte) {
	// a column header at the end of a foreign line (a pasted command)
	if i := bytes.Index(t, []byte(colBytes.name)); i >= 0 && bytes.Contains(t, []byte(colReps.name)) {
		if bytes.Equal(bytes.TrimSpace(t[:i]), []byte(groupColumn)) { // -multi 1
			s.header(n, t)
			return
		}
		s.ctx.Note(string(t[:i]))
		s.header(n, t[i:])
		return
	}
	if s.inTable && textfmt.IsNumber(t) {
		s.row(n, t)
		return
	}
	if s.tail(string(t)) {
		return
	}
	s.f.Foreign++
	s.ctx.Note(string(t))
}

// tail keeps a -show_tail line (tailLine) in the record of the row just
// read; false for a line that is none, or one under no row.
func (s *imbState) tail(line string) bool {
	rs := s.results()
	if !s.inTable || len(rs) == 0 {
		return false
	}
	tl := tailLine(line)
	if tl == nil {
		return false
	}
	rs[len(rs)-1].Tail = append(rs[len(rs)-1].Tail, tl...)
	return true
}

// comment reads a "#" line, body its text after the "#": IMB's banner and
// table lines, gomb's own, the preamble's "Key : value" lines, the list of
// benchmarks.
func (s *imbState) comment(n int, t []byte, body string) {
	if s.structure(n, t, body) || s.gombLine(body) || s.tail(body) {
		return
	}
	if s.callSeq && body != "" && !strings.HasPrefix(body, "-") {
		s.callSeq = false
		s.meta("calling_sequence", body)
		if s.run != nil {
			s.run.Run.Command = strings.Fields(body)
		}
		return
	}
	if key, val, ok := strings.Cut(body, ":"); ok && s.run != nil && !s.inTable {
		s.headerLine(strings.Join(strings.Fields(key), " "), strings.TrimSpace(val))
		return
	}
	if s.listing && body != "" && !strings.Contains(body, " ") && !strings.HasPrefix(body, "-") {
		s.benchList = append(s.benchList, body)
		return
	}
	if strings.Trim(body, "-") == "" { // the dashed rules around table headers
		s.listing = false
		return
	}
	s.inTable = false
}

// structure reads IMB's own lines of the banner and around the tables;
// false for a line that is none.
func (s *imbState) structure(n int, t []byte, body string) bool {
	switch {
	case strings.HasPrefix(body, "SBATCH"): // the job script's: its nodes
		s.f.Foreign++
		s.ctx.Note(string(t))
	case strings.Contains(body, "MPI Benchmarks") || strings.Contains(body, "IMB-MPI1 2021"):
		if suite, ok := titleSuite(body); ok {
			s.start(n)
			s.suite = suite
			s.run.Run.Suite = suite
			s.run.Run.Tool = imbTool(body)
			s.run.Run.Source.Meta["title"] = body
		}
	case strings.HasPrefix(body, "MODE:"): // IMB-EXT, -RMA, -IO: after the table's dashes
		switch strings.TrimSpace(strings.TrimPrefix(body, "MODE:")) {
		case "AGGREGATE":
			s.mode = result.ModeAggregate
		case "NON-AGGREGATE":
			s.mode = result.ModeNonAggregate
		}
	case strings.HasSuffix(body, "lengths were user defined"): // -msglen, -msgsize
		s.meta("lengths", "user defined")
	case strings.HasPrefix(body, "Calling sequence was"):
		s.callSeq = true
	case strings.HasPrefix(body, "List of Benchmarks to run"):
		s.listing = true
	case strings.HasPrefix(body, "Benchmarking "):
		s.table(n, strings.TrimSpace(strings.TrimPrefix(body, "Benchmarking ")))
	case strings.HasPrefix(body, "#processes ="):
		s.processes(n, strings.TrimSpace(strings.TrimPrefix(body, "#processes =")))
	case strings.HasPrefix(body, "( ") && strings.Contains(body, "waiting in MPI_Barrier"):
		s.idle, _ = strconv.Atoi(strings.Fields(body)[1])
		if s.run != nil { // the processes started: the active ones and those waiting
			s.run.Run.WorldSize = max(s.run.Run.WorldSize, s.np+s.idle)
		}
	case strings.HasPrefix(body, "( ") && strings.Contains(body, "groups of"):
		if f := strings.Fields(body); len(f) > 4 {
			s.groups, _ = strconv.Atoi(f[1])
			s.np, _ = strconv.Atoi(f[4])
		}
	case strings.HasPrefix(body, "!! Benchmark"):
		s.meta("invalid", body)
	case strings.HasPrefix(body, "All processes entering MPI_Finalize"):
		s.unfinished()
		s.finalized = true
		s.inTable = false
	case bytes.Contains(t, []byte(colReps.name)):
		s.header(n, t)
	case strings.HasPrefix(body, "!! check failed"):
	default:
		return false
	}
	return true
}

// processes reads a table's "#processes = N" line (IMB-MT's "N (threads:
// T)").
func (s *imbState) processes(n int, v string) {
	v, _, _ = strings.Cut(v, ";")
	v, threads, mt := strings.Cut(v, "(threads:") // IMB-MT: "2 (threads: 2)"
	if mt && s.run != nil {
		s.run.Run.Source.Meta["threads"] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(threads), ")"))
	}
	np, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || np < 1 || np > result.MaxNP {
		s.f.Problem(n, "#processes %q is not a process count: the table's rows are skipped", strings.TrimSpace(v))
		np = -1 // rows read until the next header are dropped
	}
	s.np = np
}

// gombLine reads gomb's own lines in its IMB tables: an overflow's
// reason, -confirm's re-runs, where MPI-4's large-count calls begin;
// false for a line that is none.
func (s *imbState) gombLine(body string) bool {
	switch {
	case strings.HasPrefix(body, result.StatusIntOverflow+": "): // gomb's reason under its row
		if rs := s.results(); len(rs) > 0 && rs[len(rs)-1].Status == result.StatusIntOverflow {
			rs[len(rs)-1].Reason = strings.TrimPrefix(body, result.StatusIntOverflow+": ")
		}
	case strings.HasPrefix(body, "confirm: ") && strings.Contains(body, " tripped the baseline "):
		if f := strings.Fields(body); len(f) > 4 && f[len(f)-4] == "repeat" {
			s.repeatOf = f[1]
			s.repeat, _ = strconv.Atoi(f[len(f)-3])
		}
	case strings.HasPrefix(body, "from ") && strings.Contains(body, "large-count calls"):
		if f := strings.Fields(body); len(f) > 1 {
			s.largeFrom, _ = strconv.ParseInt(f[1], 10, 64)
		}
	default:
		return false
	}
	return true
}

func (s *imbState) meta(k, v string) {
	if s.run == nil {
		s.start(0)
	}
	if old, ok := s.run.Run.Source.Meta[k]; ok && k == "invalid" {
		v = old + "; " + v
	}
	s.run.Run.Source.Meta[k] = v
}

// headerLine keeps one "# Key : value" line of IMB's preamble; a heading
// that ends in a colon ("# New default behavior from Version 3.2 on:",
// IMB 4's note on -time) is no key.
func (s *imbState) headerLine(key, val string) {
	r := s.run.Run
	if val == "" && strings.Count(key, " ") > 3 {
		return
	}
	switch key {
	case "Date":
		if t, err := time.Parse("Mon Jan 2 15:04:05 2006", strings.Join(strings.Fields(val), " ")); err == nil {
			r.Start = t
		}
	case "MPI Version":
		r.MPI.Standard = val
	case "MPI Thread Environment":
		r.MPI.Thread = val
	}
	s.meta(key, val)
}

// table starts a benchmark's table ("# Benchmarking X").
func (s *imbState) table(n int, name string) {
	multi := strings.HasPrefix(name, "Multi-")
	name = strings.TrimPrefix(name, "Multi-")
	if i := strings.Index(name, " ("); i > 0 { // IMB-P2P's stencils name their grid: "Stencil2D (2 x 2)"
		name = name[:i]
	}
	s.unfinished()
	if s.run == nil || s.finalized {
		s.start(n)
	}
	s.bench, s.mode, s.np, s.idle, s.groups, s.headerSeen = name, "", 0, 0, 1, true
	s.head = n
	s.largeFrom = 0
	if multi {
		s.groups = 0 // set by the groups line
	}
}

// header reads a column header line and opens the table's rows.
func (s *imbState) header(n int, h []byte) {
	if !s.headerSeen {
		s.unfinished()
		// A table without "# Benchmarking": a pasted log. The benchmark is
		// the one the launch command named.
		if s.run == nil || s.finalized || len(s.run.Results) > 0 {
			s.start(n)
		}
		s.bench, s.np, s.idle, s.groups = "", 0, 0, 1
		if len(s.ctx.Benches) == 1 {
			s.bench = s.ctx.Benches[0]
		}
		if s.bench == "" {
			s.f.Problem(n, "a table with no benchmark name (no \"# Benchmarking\" line, no IMB-MPI1 command naming one)")
		}
	}
	s.headerSeen, s.head = false, 0 // this table's "# Benchmarking": its header follows
	if s.np == 0 {
		if singleTransfer(s.bench) {
			s.np = 2
		} else if s.ctx.NP > 0 {
			s.np = s.ctx.NP
		}
	}
	key := s.bench + "/" + s.mode + "/" + strconv.Itoa(s.np)
	if s.bench == s.repeatOf { // gomb -confirm's re-run: the same run
		key += "/" + strconv.Itoa(s.repeat)
	}
	if s.seen[key] { // the same table again: another run
		bench, mode, np, groups := s.bench, s.mode, s.np, s.groups
		s.start(n)
		s.bench, s.mode, s.np, s.groups = bench, mode, np, groups
	}
	s.seen[key] = true
	s.cols, s.last = strings.Fields(string(h)), nil
	s.inTable = s.bench != ""
	s.head = 0
	if s.inTable && s.np >= 0 {
		s.head = n
	}
}

// unfinished reports a table that ended before its first row: a
// benchmark that crashed or was killed (its header, then the launcher's
// error text or the end of the file).
func (s *imbState) unfinished() {
	if s.head > 0 {
		s.f.Problem(s.head, "%s: a header with no results (the test did not finish?)", s.bench)
	}
	s.head = 0
}

// row reads one table row.
func (s *imbState) row(n int, t []byte) {
	s.head = 0
	if s.np < 0 { // under a #processes line that said no count: reported there
		return
	}
	s.tok = textfmt.Fields(s.tok[:0], t)
	tok := s.tok
	r := &result.Result{Suite: s.suiteOf(s.bench), Benchmark: s.bench, Mode: s.mode, NP: s.np, Groups: max(s.groups, 1),
		Group: -1, Locality: s.ctx.Locality(s.world())}
	i := 0
	if len(s.cols) > 0 && s.cols[0] == groupColumn {
		g, ok := textfmt.Number(tok[0])
		if !ok {
			s.f.Problem(n, "%s: bad group %q", s.bench, tok[0])
			return
		}
		r.Group, i = int(g), 1
	}
	if len(tok) > i+1 && (bytes.HasSuffix(tok[i+1], []byte(".;")) || string(tok[i+1]) == "int-overflow;") {
		// failure rows: "<size> time-out.; ...", "<size> out-of-mem.; needed X=   0.009 GB; ...",
		// "<size> int-overflow; ..." (IMB 2021.8 on; "int-overflow.;" before)
		size, ok := textfmt.Number(tok[i])
		if ok {
			r.Bytes, ok = textfmt.AsCount(size)
		}
		if !ok {
			s.f.Problem(n, "%s: bad size %q", s.bench, tok[i])
			return
		}
		switch string(tok[i+1]) {
		case "time-out.;":
			r.Status = result.StatusTimeOut
		case "out-of-mem.;":
			r.Status = result.StatusOutOfMem
			if k := bytes.Index(t, []byte("X=")); k >= 0 {
				if f := bytes.Fields(t[k+2:]); len(f) > 0 {
					r.NeededGB, _ = textfmt.Number(f[0])
				}
			}
		case "int-overflow.;", "int-overflow;":
			r.Status = result.StatusIntOverflow
		default:
			s.f.Problem(n, "%s: unknown failure row %q", s.bench, tok[i+1])
			return
		}
		s.add(r)
		return
	}
	cols := s.cols[i:]
	if len(tok)-i != len(cols) {
		if !allNumbers(tok) { // prose that starts with a number ("2. Ethernet"): not a row
			s.f.Foreign++
			s.ctx.Note(string(t))
			return
		}
		s.f.Problem(n, "%s: %d values for %d columns", s.bench, len(tok)-i, len(cols))
		return
	}
	for k, name := range cols {
		c := columnNamed[name]
		if c == nil { // a column gomb does not know: its values must still be numbers
			c = &column{get: func(_ *result.Result, tok []byte) error { _, err := number(tok); return err }}
		}
		if err := c.get(r, tok[i+k]); err != nil {
			s.f.Problem(n, "%s: %s %q %v", s.bench, name, tok[i+k], err)
			return
		}
	}
	if r.Bytes < 0 || r.Repetitions < 0 {
		s.f.Problem(n, "%s: negative size or repetitions", s.bench)
		return
	}
	last := tok[len(tok)-1]
	if s.f.CutShort(n, last, s.last) {
		s.f.Problem(n, "%s: the file ends inside this row (no newline, and its last value %q has fewer decimals than the row before's %q): a value cut short, not stored", s.bench, last, s.last)
		return
	}
	s.last = append(s.last[:0:0], last...)
	s.add(r)
}

func allNumbers(tok [][]byte) bool {
	for _, t := range tok {
		if _, ok := textfmt.Number(t); !ok {
			return false
		}
	}
	return true
}

// world is the number of processes the current table's job started, as
// far as the log says: the launch line's, or the table's active ones and
// those waiting.
func (s *imbState) world() int {
	return max(s.run.Run.WorldSize, s.np+s.idle)
}

// programSuite is the suite of an IMB program a launch line runs
// ("IMB-P2P": imb-p2p); "" for none.
func programSuite(program string) string {
	switch program {
	case "":
		return ""
	case "IMB-P2P":
		return p2p.Suite
	case "IMB-MT":
		return mt.Suite
	}
	for _, suite := range imb.Suites {
		if _, binary := imb.Part(suite); binary == program {
			return suite
		}
	}
	return ""
}

// titleSuite reads IMB's title line: the suite of "..., MPI-1 part",
// "..., MPI-NBC part" and the other banners, and of gomb's "(IMB-NBC
// 2021.11 compatible)".
func titleSuite(body string) (string, bool) {
	for _, suite := range imb.Suites {
		part, binary := imb.Part(suite)
		if strings.Contains(body, part+" part") || strings.Contains(body, "("+binary+" ") {
			return suite, true
		}
	}
	if strings.Contains(body, "IMB-P2P part") {
		return p2p.Suite, true
	}
	if strings.Contains(body, ", MT part") {
		return mt.Suite, true
	}
	return "", strings.Contains(body, "compatible") // gomb's before it named the suite
}

// suiteOf is the suite of a row of benchmark name: the title's, else the
// first suite that has the name (a pasted table).
func (s *imbState) suiteOf(name string) string {
	if s.suite != "" {
		return s.suite
	}
	for _, suite := range imb.Suites {
		if _, ok := imb.Lookup(suite, name); ok {
			if s.run != nil && suite != imb.Suite {
				s.run.Run.Suite = suite
			}
			return suite
		}
	}
	if _, ok := mt.Lookup(name); ok { // IMB-MT's names are its own; IMB-P2P's are IMB-MPI1's
		if s.run != nil {
			s.run.Run.Suite = mt.Suite
		}
		return mt.Suite
	}
	return imb.Suite
}

func (s *imbState) add(r *result.Result) {
	if r.NP == 0 {
		r.NP = s.opt.NP
	}
	if r.Benchmark == s.repeatOf {
		r.Repeat = s.repeat
	}
	r.LargeCount = s.largeFrom > 0 && r.Bytes >= s.largeFrom && (r.Status == "" || r.Status == result.StatusOK)
	s.run.Results = append(s.run.Results, r)
}

// imbTool reads the title line: "Intel(R) MPI Benchmarks 2021.10, MPI-1 part",
// "Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part" or gomb's.
func imbTool(title string) result.Tool {
	name, _, _ := strings.Cut(title, ",")
	t := result.Tool{Name: strings.TrimSpace(name)}
	if f := strings.Fields(name); len(f) > 1 && f[0] == "gomb" { // "gomb 0.1.0 (IMB-MPI1 2021.11 compatible)"
		return result.Tool{Name: "gomb", Version: f[1]}
	}
	if i := strings.Index(name, "Benchmarks "); i >= 0 {
		t.Name = strings.TrimSpace(name[:i+len("Benchmarks")])
		t.Version = strings.TrimSpace(name[i+len("Benchmarks "):])
	}
	return t
}

// results are the current run's results so far.
func (s *imbState) results() []*result.Result {
	if s.run == nil {
		return nil
	}
	return s.run.Results
}
