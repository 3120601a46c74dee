package importer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// imbRows is an IMB-MPI1 PingPong table with the given rows.
func imbRows(rows ...string) []byte {
	return []byte(`#----------------------------------------------------------------
# Intel(R) MPI Benchmarks 2021.11, MPI-1 part
#----------------------------------------------------------------
#---------------------------------------------------
# Benchmarking PingPong
# #processes = 2
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
` + strings.Join(rows, "\n") + "\n")
}

// TestBadValuesSkipped: a row with a value that is no measurement (nan,
// inf, negative, out of range, control characters) is one FILE:LINE
// problem; the rows around it are kept.
func TestBadValuesSkipped(t *testing.T) {
	good := "            0         1000         0.40         0.00"
	cases := []struct{ row, want string }{
		{"            2         1000          nan         4.88", `x.log:10: PingPong: t[usec] "nan" is not a number ≥ 0`},
		{"            2         1000          inf         4.88", `x.log:10: PingPong: t[usec] "inf" is not a number ≥ 0`},
		{"            2         1000         0.41        -9.76", `x.log:10: PingPong: Mbytes/sec "-9.76" is not a number ≥ 0`},
		{"         1e20         1000         0.41         9.76", `x.log:10: PingPong: #bytes "1e20" is out of range`},
		{"            2         1e30         0.41         9.76", `x.log:10: PingPong: #repetitions "1e30" is out of range`},
		{"         1e20 time-out.; ...", `x.log:10: PingPong: bad size "1e20"`},
		{"            2         1000    \x00 0.41         9.76", `x.log:10: a row with control characters "            2         1000    \x00 0.41         9.76"`},
		{"            2         1000   \x1b[31m0.41         9.76", `x.log:10: a row with control characters`},
	}
	for _, c := range cases {
		f, err := Import(imbRows(good, c.row, "            4         1000         0.41         9.76"), "x.log", Options{})
		if err != nil {
			t.Fatalf("%q: %v", c.row, err)
		}
		if len(f.Problems) != 1 || !strings.HasPrefix(f.Problems[0].Error(), c.want) {
			t.Errorf("%q: problems %v, want %s", c.row, f.Problems, c.want)
		}
		if len(f.Runs) != 1 || len(f.Runs[0].Results) != 2 {
			t.Fatalf("%q: %d runs", c.row, len(f.Runs))
		}
		var b bytes.Buffer
		if err := f.Runs[0].Encode(&b); err != nil {
			t.Errorf("%q: %v", c.row, err)
		}
	}
}

// TestRecordsSniffedByParsing: records written by another JSON writer
// (spaces after colons, keys in another order) are gomb records.
func TestRecordsSniffedByParsing(t *testing.T) {
	data := mustRead(t, "testdata/gomb_records_osu_bw_np2.jsonl")
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		// Python's json.dumps: ", " and ": " separators
		b, _ := json.Marshal(m)
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte(`":`), []byte(`": `)), []byte(`,"`), []byte(`, "`))
		out.Write(b)
		out.WriteByte('\n')
	}
	if !bytes.Contains(out.Bytes(), []byte(`"schema": "gomb/v1"`)) {
		t.Fatalf("not respaced: %.200s", out.String())
	}
	f, err := Import(out.Bytes(), "py.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Import(data, "x.jsonl", Options{})
	if f.Format != Records || len(f.Runs) != len(want.Runs) || len(f.Runs[0].Results) != len(want.Runs[0].Results) || len(f.Problems) > 0 {
		t.Errorf("format %q, %d runs, problems %v", f.Format, len(f.Runs), f.Problems)
	}
	for _, notRecords := range []string{`{"schema": "other/v1"}`, `{"type":"run"}`, `{ not json`} {
		if Sniff([]byte(notRecords)) == Records {
			t.Errorf("%s sniffed as records", notRecords)
		}
	}
}

// TestCompressedAndUTF16: a gzipped log reads as the log (same run ids); a
// UTF-16 log is named as such.
func TestCompressedAndUTF16(t *testing.T) {
	data := mustRead(t, "testdata/imb2019_np2_twice.txt")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	a, err := Import(data, "x.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Import(gz.Bytes(), "x.log.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Runs) != len(b.Runs) || a.Runs[0].Run.RunID != b.Runs[0].Run.RunID {
		t.Errorf("gzip: %d runs vs %d", len(b.Runs), len(a.Runs))
	}
	if _, err := Import(gz.Bytes()[:40], "cut.gz", Options{}); err == nil || !strings.Contains(err.Error(), "cut.gz: gzip-compressed") {
		t.Errorf("cut gzip: %v", err)
	}
	u16 := []byte{0xff, 0xfe}
	for _, c := range string(data[:200]) {
		u16 = append(u16, byte(c), 0)
	}
	if _, err := Import(u16, "w.log", Options{}); err == nil || !strings.Contains(err.Error(), "w.log: UTF-16 text") {
		t.Errorf("UTF-16: %v", err)
	}
}

// TestRecordLabelsEscaped: labels with control characters in a record file
// are kept escaped, with a note.
func TestRecordLabelsEscaped(t *testing.T) {
	data := mustRead(t, "testdata/gomb_records_osu_bw_np2.jsonl")
	f, _ := Import(data, "x.jsonl", Options{})
	f.Runs[0].Run.Labels = map[string]string{"system": "a\nb", "con\x1b[2Jfig": "\u202eevil"}
	var b bytes.Buffer
	if err := f.Runs[0].Encode(&b); err != nil {
		t.Fatal(err)
	}
	g, err := Import(b.Bytes(), "y.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := g.Runs[0].Run.Labels
	if l["system"] != `a\nb` || l[`con\x1b[2Jfig`] != `\u202eevil` || len(l) != 2 {
		t.Errorf("labels %q", l)
	}
	if len(g.Problems) != 2 {
		t.Fatalf("problems %v", g.Problems)
	}
	for _, p := range g.Problems {
		if se, ok := p.(*result.SyntaxError); !ok || !se.Kept || se.Line != 1 {
			t.Errorf("problem %#v", p)
		}
	}
}

// TestOneWayNegative: a one-way time below zero (a clock error) is kept,
// unlike a negative latency.
func TestOneWayNegative(t *testing.T) {
	log := "# gomb One-way Latency Test v0.1.0\n" +
		"# Size      RTT/2 (us)      0->1 (us)      1->0 (us)     +-Sync (us)\n" +
		"1                 0.50          -0.10           1.10            0.30\n" +
		"2                -0.50           0.40           0.60            0.30\n"
	f, err := Import([]byte(log), "ow.txt", Options{NP: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 1 || len(f.Runs[0].Results) != 1 || len(f.Problems) != 1 ||
		!strings.Contains(f.Problems[0].Error(), `ow.txt:4: oneway: RTT/2 (us) "-0.50"`) {
		t.Fatalf("runs %d, problems %v", len(f.Runs), f.Problems)
	}
	if ow := f.Runs[0].Results[0].OneWay; ow == nil || ow.ForwardUS != -0.10 {
		t.Errorf("one-way %+v", ow)
	}
}

// TestLongRecordLines: a run record line of any length gomb writes is
// read back: 1,024 and 4,096 ranks (about 180 bytes each, so lines of
// 180 KB and 740 KB, far past the 64 KiB the format is sniffed from) and
// a 100 KB label.
func TestLongRecordLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		ranks int
		label string
	}{{"1024 ranks", 1024, "hpc4"}, {"4096 ranks", 4096, "hpc4"}, {"100 KB label", 2, strings.Repeat("x", 100<<10)}} {
		t.Run(c.name, func(t *testing.T) {
			run := &result.Run{RunID: "0123456789abcdef", Suite: "imb", WorldSize: c.ranks, Labels: map[string]string{"system": c.label}}
			for i := range c.ranks {
				run.Ranks = append(run.Ranks, result.Rank{Rank: i, Host: fmt.Sprintf("node%04d", i/64), PID: 100000 + i,
					CPUs: fmt.Sprint(i % 64), CPUModel: "AMD EPYC 9654 96-Core Processor", Kernel: "6.1.0-26-amd64", Machine: "x86_64"})
				if i%64 == 0 {
					run.Hosts = append(run.Hosts, fmt.Sprintf("node%04d", i/64))
				}
			}
			b := &result.Bundle{Run: run, Results: []*result.Result{{RunID: run.RunID, Benchmark: "PingPong", NP: 2, Bytes: 8, Repetitions: 1000,
				TMinUS: 1, TMaxUS: 1, TAvgUS: 1, Locality: result.InterNode}},
				End: &result.End{RunID: run.RunID, Status: result.EndComplete}}
			var buf bytes.Buffer
			if err := b.Encode(&buf); err != nil {
				t.Fatal(err)
			}
			first, _, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
			if len(first) <= headSize {
				t.Fatalf("the run record is %d bytes, not longer than the sniffed head", len(first))
			}
			f, err := Import(buf.Bytes(), "big.jsonl", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Format != Records || len(f.Runs) != 1 || len(f.Runs[0].Run.Ranks) != c.ranks ||
				f.Runs[0].Run.Labels["system"] != c.label || len(f.Runs[0].Results) != 1 || len(f.Problems) > 0 {
				t.Errorf("format %q, %d runs, problems %v", f.Format, len(f.Runs), f.Problems)
			}
		})
	}
}

// TestImportWritesWhatItReads: a log whose header gives no process count
// (negative, or past any int) is one problem at that line and its rows
// are dropped; every record an import writes reads back without a
// problem.
func TestImportWritesWhatItReads(t *testing.T) {
	for _, np := range []string{"-2", "18446744073709551617", "0"} {
		log := bytes.Replace(imbRows("            0         1000         0.40         0.00",
			"            8         1000         0.41         9.76"), []byte("#processes = 2"), []byte("#processes = "+np), 1)
		f, err := Import(log, "x.log", Options{})
		if err != nil {
			t.Fatalf("%s: %v", np, err)
		}
		if len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Error(), "x.log:6: #processes") {
			t.Errorf("#processes = %s: problems %v", np, f.Problems)
		}
		var out bytes.Buffer
		for _, r := range f.Runs {
			if len(r.Results) > 0 {
				t.Errorf("#processes = %s: %d results kept", np, len(r.Results))
			}
			if err := r.Encode(&out); err != nil {
				t.Fatal(err)
			}
		}
		if out.Len() == 0 {
			continue
		}
		back, err := Import(out.Bytes(), "back.jsonl", Options{})
		if err != nil || len(back.Problems) > 0 {
			t.Errorf("#processes = %s: the records read back with %v, %v", np, err, back.Problems)
		}
	}
}

// TestMixedFormats: a job script's output holding an IMB log, OSU output
// and mpi-comm-bench output one after another yields the runs of all
// three, each of its own suite.
func TestMixedFormats(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	imb, osu, ring := read("imb_np2_p2p_coll.txt"), read("osu_latency_np2.txt"), read("ring_np2_default.txt")
	for _, parts := range [][][]byte{{imb, osu, ring}, {osu, ring, imb}} {
		f, err := Import(bytes.Join(parts, nil), "job.out", Options{})
		if err != nil {
			t.Fatal(err)
		}
		suites := map[string]int{}
		for _, r := range f.Runs {
			suites[r.Run.Suite] += len(r.Results)
		}
		if len(suites) != 3 || suites["imb"] == 0 || suites["osu"] == 0 || suites["ring"] == 0 || len(f.Problems) > 0 {
			t.Errorf("%s first: results per suite %v, problems %v; want imb, osu and ring", f.Format, suites, f.Problems)
		}
	}
}

// osuRows is an osu_latency table with the given rows.
func osuRows(rows ...string) []byte {
	return []byte("# OSU MPI Latency Test v5.8\n# Size          Latency (us)\n" + strings.Join(rows, "\n"))
}

// TestCutRowAtEnd: a last row that the end of the file cuts inside a
// number (no newline, fewer decimals than the row before) is one problem
// and not stored; a whole last row without a newline is read, as is a
// short value on a line that ends.
func TestCutRowAtEnd(t *testing.T) {
	good := []string{"            0         1000         0.40         0.00", "            2         1000         0.41         4.88"}
	cases := []struct {
		name string
		data []byte
		want int // results
		cut  bool
	}{
		{"IMB cut", append(imbRows(good...), "            4         1000         0.41         9.7"...), 2, true},
		{"IMB cut before the point", append(imbRows(good...), "            4         1000         0.41         9"...), 2, true},
		{"IMB whole", append(imbRows(good...), "            4         1000         0.41         9.76"...), 3, false},
		{"IMB short value, line ended", append(imbRows(good...), "            4         1000         0.41         9.7\n"...), 3, false},
		{"OSU cut", osuRows("1                       1.23", "2                       1.24", "4                       1.2"), 2, true},
		{"OSU whole", osuRows("1                       1.23", "2                       1.24", "4                       1.25"), 3, false},
	}
	for _, c := range cases {
		f, err := Import(c.data, "x.log", Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for _, r := range f.Runs {
			n += len(r.Results)
		}
		cut := len(f.Problems) == 1 && strings.Contains(f.Problems[0].Error(), "the file ends inside this row")
		if n != c.want || cut != c.cut || !c.cut && len(f.Problems) > 0 {
			t.Errorf("%s: %d results, problems %v; want %d results, cut %v", c.name, n, f.Problems, c.want, c.cut)
		}
	}
}

// TestProblemQuotesCut: a value of a megabyte is quoted in part, with its
// length; the message stays one short line.
func TestProblemQuotesCut(t *testing.T) {
	big := "1" + strings.Repeat("0", 1<<20) // +Inf as a float
	for name, data := range map[string][]byte{
		"IMB": imbRows("            0         1000         0.40         0.00", "            2         1000  "+big+"         4.88"),
		"OSU": osuRows("1                       1.23", "2   "+big, "4 1.25\n"),
	} {
		f, err := Import(data, "x.log", Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Problems) != 1 {
			t.Fatalf("%s: problems %d", name, len(f.Problems))
		}
		msg := f.Problems[0].Error()
		if len(msg) > 300 || !strings.Contains(msg, fmt.Sprintf("… (%d bytes)", len(big))) || !strings.Contains(msg, "is not a number") {
			t.Errorf("%s: %d bytes: %.300s", name, len(msg), msg)
		}
	}
}

// TestImplausibleValues: a time of 1e+308 or 1e-308 µs (or a rate beyond
// an exabyte a second) is no measurement: one problem a row, the row not
// stored; 0.00 (a time below IMB's print resolution) is.
func TestImplausibleValues(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want int
	}{
		{"IMB", imbRows("            0         1000         0.00         0.00", "            2         1000       1e+308         4.88",
			"            4         1000       1e-308         9.76", "            8         1000         0.41         2e13", "           16         1000         0.42        38.10"), 2},
		{"OSU", osuRows("1                       1.23", "2                     1e+308", "4                     1e-308", "8                       1.25\n"), 2},
		{"ring", []byte("Ring comm benchmark.\nMessage size:   1048576 bytes (~1.04858 MB, ~0.00104858 GB).\n" +
			"Bandwidth (send + recv): min =      0.500 GB/s | max =      0.501 GB/s | avg =      0.500 GB/s || Duration (send + recv): min =      4.188 ms | max =      4.196 ms | avg =      4.192 ms\n" +
			"Bandwidth (send + recv): min =      0.500 GB/s | max =      1e+300 GB/s | avg =      0.500 GB/s || Duration (send + recv): min =      4.188 ms | max =      4.196 ms | avg =      4.192 ms\n"), 1},
	}
	for _, c := range cases {
		f, err := Import(c.data, "x.log", Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for _, r := range f.Runs {
			n += len(r.Results)
		}
		if n != c.want || len(f.Problems) == 0 {
			t.Errorf("%s: %d results, problems %v; want %d", c.name, n, f.Problems, c.want)
		}
		for _, p := range f.Problems {
			if !strings.Contains(p.Error(), "is no plausible measurement") || strings.Count(p.Error(), "\n") > 0 {
				t.Errorf("%s: %v", c.name, p)
			}
		}
	}
}

// TestTableAfterLongOutput: a job's output of more than the sniffed head
// (64 KiB of module and build lines) before its first table is read on,
// not refused.
func TestTableAfterLongOutput(t *testing.T) {
	var pre strings.Builder
	for i := 0; pre.Len() < 3*headSize; i++ {
		fmt.Fprintf(&pre, "[build] compiling object %d of the application, flags -O3 -march=native\n", i)
	}
	for name, table := range map[string][]byte{
		"IMB": imbRows("            0         1000         0.40         0.00", "            2         1000         0.41         4.88"),
		"OSU": osuRows("1                       1.23", "2                       1.24\n"),
	} {
		f, err := Import(append([]byte(pre.String()), table...), "job.out", Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Runs) != 1 || len(f.Runs[0].Results) != 2 || string(f.Format) != strings.ToLower(name) {
			t.Errorf("%s: format %s, %d runs", name, f.Format, len(f.Runs))
		}
	}
	if _, err := Import([]byte(pre.String()), "job.out", Options{}); err == nil || !strings.Contains(err.Error(), "anywhere in its") {
		t.Errorf("no table: %v", err)
	}
}
