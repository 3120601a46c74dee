package importer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
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
