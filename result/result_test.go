package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func readAll(t *testing.T, b []byte) (recs []any, bad []*SyntaxError) {
	t.Helper()
	d := NewDecoder(bytes.NewReader(b), "test.jsonl")
	for d.Scan() {
		if e, ok := d.Record().(*SyntaxError); ok {
			bad = append(bad, e)
			continue
		}
		recs = append(recs, d.Record())
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return recs, bad
}

// TestDecodeRealRun reads records written by a real 2-rank gomb run.
func TestDecodeRealRun(t *testing.T) {
	b, err := os.ReadFile("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, bad := readAll(t, b)
	if len(bad) > 0 {
		t.Fatalf("syntax errors: %v", bad)
	}
	run, ok := recs[0].(*Run)
	if !ok || run.WorldSize != 2 || len(run.Ranks) != 2 || run.MPI.Library == "" {
		t.Fatalf("first record %+v", recs[0])
	}
	if _, ok := recs[len(recs)-1].(*End); !ok {
		t.Fatalf("last record %T, want *End", recs[len(recs)-1])
	}
	for _, r := range recs[1 : len(recs)-1] {
		res := r.(*Result)
		if res.RunID != run.RunID || res.Repetitions != 10 || len(res.SamplesUS) != 2 || len(res.SamplesUS[0]) != 10 {
			t.Errorf("result %s %d: run %s reps %d samples %d", res.Benchmark, res.Bytes, res.RunID, res.Repetitions, len(res.SamplesUS))
		}
		if !(res.TMinUS <= res.TAvgUS && res.TAvgUS <= res.TMaxUS) {
			t.Errorf("result %s %d: t_min %g t_avg %g t_max %g", res.Benchmark, res.Bytes, res.TMinUS, res.TAvgUS, res.TMaxUS)
		}
	}
}

// TestRoundTrip encodes every record type and decodes it back unchanged.
func TestRoundTrip(t *testing.T) {
	start := time.Date(2026, 11, 30, 3, 32, 3, 0, time.UTC)
	run := &Run{RunID: "abc", Tool: Tool{Name: "gomb", Version: "0.1.0", GoVersion: "go1.26"}, Suite: "imb",
		Command: []string{"gomb", "imb", "PingPong"}, Start: start,
		MPI:       MPI{Impl: "openmpi", Library: "Open MPI v4.1.4", Standard: "3.1", Thread: "MPI_THREAD_FUNNELED"},
		WorldSize: 2, Ranks: []Rank{{Rank: 0, Host: "a", PID: 1, CPUs: "0"}, {Rank: 1, Host: "b", PID: 2, CPUs: "1"}},
		Hosts: []string{"a", "b"}, Env: map[string]string{"OMPI_X": "1"}, Options: map[string]any{"npmin": 2.0}}
	res := &Result{RunID: "abc", Suite: "imb", Benchmark: "PingPong", NP: 2, Groups: 1, Group: -1, Bytes: 8,
		Repetitions: 3, Status: StatusOK, TMinUS: 1, TMaxUS: 2, TAvgUS: 1.5, MBps: 4, Locality: InterNode,
		HostCount: 2, Ranks: []int{0, 1}, RankMeanUS: []float64{1, 2},
		SamplesUS: [][]float64{{1, 1, 1}, {2, 2, 2}}, Check: &Check{Passed: true}, Time: start}
	end := &End{RunID: "abc", Status: EndComplete, Time: start, ElapsedS: 1.5,
		Cost: &RecordCost{GatherS: 0.25, EncodeS: 0.125, Bytes: 100, LargestBytes: 60, PeakRSSMB: 25.5, Samples: 6}}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := enc.Run(run); err != nil {
		t.Fatal(err)
	}
	runBytes := buf.Len()
	if err := enc.Result(res); err != nil {
		t.Fatal(err)
	}
	// The encoder counts what its result records cost (the run record not).
	if b, largest, took := enc.Cost(); b != int64(buf.Len()-runBytes) || largest != b || took <= 0 {
		t.Errorf("cost %d bytes (largest %d) in %v, wrote %d", b, largest, took, buf.Len()-runBytes)
	}
	if err := enc.End(end); err != nil {
		t.Fatal(err)
	}
	// After End the stream is closed: nothing more is written.
	if err := enc.Result(res); err != nil || strings.Count(buf.String(), "\n") != 3 {
		t.Fatalf("write after End: %v, %d lines", err, strings.Count(buf.String(), "\n"))
	}
	recs, bad := readAll(t, buf.Bytes())
	if len(bad) > 0 || len(recs) != 3 {
		t.Fatalf("decoded %d records, errors %v", len(recs), bad)
	}
	if got := recs[1].(*Result); !reflect.DeepEqual(got, res) {
		t.Errorf("result round trip\n got %+v\nwant %+v", got, res)
	}
	if got := recs[2].(*End); got.Results != 1 || got.Status != EndComplete || !reflect.DeepEqual(got.Cost, end.Cost) {
		t.Errorf("end %+v", got)
	}
	if got := recs[0].(*Run); got.RunID != "abc" || !reflect.DeepEqual(got.Ranks, run.Ranks) {
		t.Errorf("run round trip %+v", got)
	}
}

// TestMalformedLines: bad lines are reported with their line number and
// the records around them are still read.
func TestMalformedLines(t *testing.T) {
	b, err := os.ReadFile("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	in := strings.Join([]string{lines[0], "not json", lines[1], `{"type":"result","schema":"gomb/v9"}`,
		`{"type":"nope","schema":"gomb/v1"}`, `{"type":"result","schema":"gomb/v1","benchmark":"X","np":2,"ranks":[0],"rank_mean_us":[],"samples_us":[]}`,
		lines[2], lines[len(lines)-1][:40]}, "\n")
	recs, bad := readAll(t, []byte(in))
	if len(recs) != 3 {
		t.Errorf("%d good records, want 3", len(recs))
	}
	wantLines := []int{2, 4, 5, 6, 8}
	if len(bad) != len(wantLines) {
		t.Fatalf("errors %v, want lines %v", bad, wantLines)
	}
	for i, e := range bad {
		if e.Line != wantLines[i] || e.File != "test.jsonl" {
			t.Errorf("error %d at %s:%d, want line %d", i, e.File, e.Line, wantLines[i])
		}
	}
	if !strings.Contains(bad[1].Error(), "not supported") {
		t.Errorf("future schema error: %v", bad[1])
	}
	var se *SyntaxError
	if !errors.As(error(bad[0]), &se) {
		t.Error("SyntaxError does not unwrap")
	}
	// Only the unterminated last line counts as cut short by a kill.
	for i, e := range bad {
		if got, want := errors.Is(e, ErrCutShort), i == len(bad)-1; got != want {
			t.Errorf("error %d (%v): cut short %v, want %v", i, e, got, want)
		}
	}
	// A complete last record without its newline is still a record.
	if recs, bad := readAll(t, []byte(lines[0])); len(recs) != 1 || len(bad) != 0 {
		t.Errorf("unterminated complete record: %d records, errors %v", len(recs), bad)
	}
}

func TestCPUListLocalityEnv(t *testing.T) {
	t.Parallel()
	cases := map[string][]int{"": nil, "3": {3}, "0-2,5": {2, 0, 1, 5}, "0,2,4-7": {0, 2, 4, 5, 6, 7}}
	for want, in := range cases {
		if got := CPUList(in); got != want {
			t.Errorf("CPUList(%v) = %q, want %q", in, got, want)
		}
	}
	loc := []struct {
		hosts []string
		want  string
		n     int
	}{
		{[]string{"a", "a"}, IntraNode, 1}, {[]string{"a", "b"}, InterNode, 2},
		{[]string{"a", "a", "b", "b"}, Mixed, 2}, {nil, IntraNode, 0},
	}
	for _, l := range loc {
		if got, n := Locality(l.hosts); got != l.want || n != l.n {
			t.Errorf("Locality(%v) = %s %d, want %s %d", l.hosts, got, n, l.want, l.n)
		}
	}
	env := Env([]string{"OMPI_COMM_WORLD_RANK=0", "HOME=/root", "UCX_TLS=sm", "SLURM_JOB_ID=7", "BROKEN"})
	if !reflect.DeepEqual(env, map[string]string{"OMPI_COMM_WORLD_RANK": "0", "UCX_TLS": "sm", "SLURM_JOB_ID": "7"}) {
		t.Errorf("Env = %v", env)
	}
}

func FuzzDecoder(f *testing.F) {
	if b, err := os.ReadFile("testdata/run.jsonl"); err == nil {
		lines := strings.Split(string(b), "\n")
		f.Add(lines[0])
		f.Add(lines[1])
		f.Add(string(b[:len(b)/2]))
	}
	f.Add(`{"type":"end","schema":"gomb/v1"}`)
	f.Fuzz(func(t *testing.T, in string) {
		d := NewDecoder(strings.NewReader(in), "fuzz")
		for d.Scan() {
			switch r := d.Record().(type) {
			case *Result:
				if len(r.Ranks) != len(r.SamplesUS) {
					t.Fatalf("inconsistent result accepted: %q", in)
				}
			case *Run, *End, *SyntaxError:
			default:
				t.Fatalf("unexpected record %T", r)
			}
		}
	})
}

// encodeStd is what the Encoder must write for a record: encoding/json's
// Marshal and a newline.
func encodeStd(t *testing.T, v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b) + "\n", err
}

// encodeOurs is one record through the Encoder.
func encodeOurs(v any) (string, error) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	var err error
	switch r := v.(type) {
	case *Run:
		err = enc.Run(r)
	case *Result:
		err = enc.Result(r)
	case *End:
		err = enc.End(r)
	}
	return buf.String(), err
}

// checkSameBytes: the Encoder (appendResult for results, for speed) writes exactly
// the bytes of encoding/json, or fails where it fails; a result that fails
// Validate it refuses to write.
func checkSameBytes(t *testing.T, v any) {
	t.Helper()
	ours, oerr := encodeOurs(v)
	if r, ok := v.(*Result); ok && r.Validate() != nil {
		if oerr == nil {
			t.Fatalf("the encoder wrote a result Validate refuses: %s", ours)
		}
		return
	}
	std, serr := encodeStd(t, v)
	if (oerr != nil) != (serr != nil) {
		t.Fatalf("encoder error %v, encoding/json error %v", oerr, serr)
	}
	if serr == nil && ours != std {
		t.Fatalf("encoder and encoding/json differ:\n ours %s  std %s", ours, std)
	}
}

func TestEncoderBytesAreMarshal(t *testing.T) {
	var recs []any
	for _, f := range []string{"testdata/run.jsonl", "../importer/testdata/gomb_records_osu_bw_np2.jsonl"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, bad := readAll(t, b)
		if len(bad) > 0 {
			t.Fatal(bad)
		}
		recs = append(recs, got...)
	}
	prec := 0.0123456789
	odd := []string{"<a&b>", "\u2028\u2029", "tab\there", "\x00\x1f", "caf\xc3\xa9", "bad \xff utf-8", "\u202e", `"quoted" \ back`}
	for _, s := range odd {
		recs = append(recs,
			&Result{Benchmark: s, Status: s, Locality: s, TMinUS: 1e-7, TMaxUS: 1e21, TAvgUS: 123456.789, MBps: -0.0,
				Precision: &prec, Ranks: []int{0}, RankMeanUS: []float64{1e-7}, SamplesUS: [][]float64{{5e-324, 1.7976931348623157e308}}},
			&Run{RunID: s, Labels: map[string]string{s: s, "b": "x", "a": s}, Env: map[string]string{"Z": s},
				Options: map[string]any{"k": s, "n": 1.5, "list": []any{1.0, "x"}}},
			&End{RunID: s, Status: s, Message: s, Summary: map[string]any{s: []any{s}}})
	}
	for i, r := range recs {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkSameBytes(t, r) })
	}
	// What JSON cannot hold is refused by both.
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkSameBytes(t, &Result{TAvgUS: v})
	}
}

func FuzzEncoderBytesAreMarshal(f *testing.F) {
	if b, err := os.ReadFile("testdata/run.jsonl"); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f.Add(l)
		}
	}
	f.Add(`{"type":"end","schema":"gomb/v1","message":"<\u2028>"}`)
	f.Fuzz(func(t *testing.T, in string) {
		d := NewDecoder(strings.NewReader(in), "fuzz")
		for d.Scan() {
			if _, ok := d.Record().(*SyntaxError); !ok {
				checkSameBytes(t, d.Record())
			}
		}
	})
}

// TestParseCPUList: the reader of what CPUList writes.
func TestParseCPUList(t *testing.T) {
	cases := []struct {
		in   string
		want string // CPUList of the parse; "!" for an error
	}{
		{"0-3,8", "0-3,8"},
		{"1", "1"},
		{"3,1,2", "1-3"},
		{"0-1,1-2", "0-2"},
		{" 0 - 1", "!"},
		{"", "!"},
		{"a", "!"},
		{"3-1", "!"},
		{"-1", "!"},
		{"0-99999999", "!"},
	}
	for _, c := range cases {
		got, ok := ParseCPUList(c.in)
		s := CPUList(got)
		if !ok {
			s = "!"
		}
		if s != c.want {
			t.Errorf("ParseCPUList(%q) = %q, want %q", c.in, s, c.want)
		}
	}
}

// FuzzParseCPUList: whatever parses writes back to a list that parses to
// the same CPUs.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0-3,8", "1", "3,1,2", "0-1,1-2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, ok := ParseCPUList(s)
		if !ok {
			return
		}
		again, ok := ParseCPUList(CPUList(cpus))
		if !ok || !slices.Equal(cpus, again) {
			t.Fatalf("%q: %v, written %q, read back %v", s, cpus, CPUList(cpus), again)
		}
	})
}

// TestOneValidation: what the Decoder refuses the Encoder does not write:
// negative, infinite or out-of-range values anywhere in a result.
func TestOneValidation(t *testing.T) {
	good := `"benchmark":"PingPong","np":2,"groups":1,"group":-1,"bytes":8,"repetitions":10,"status":"ok","t_min_us":1,"t_max_us":1,"t_avg_us":1,"mbytes_per_sec":8,"ranks":[0],"rank_mean_us":[1],"samples_us":[[1,1]]`
	for _, c := range []struct{ from, to string }{
		{`"t_avg_us":1`, `"t_avg_us":-5`},
		{`"t_avg_us":1`, `"t_avg_us":-1e308`},
		{`"mbytes_per_sec":8`, `"mbytes_per_sec":-1`},
		{`"np":2`, `"np":-2`},
		{`"np":2`, `"np":9223372036854775807`},
		{`"bytes":8`, `"bytes":-8`},
		{`"rank_mean_us":[1]`, `"rank_mean_us":[-1]`},
		{`"samples_us":[[1,1]]`, `"samples_us":[[1,-0.5]]`},
		{`"status":"ok"`, `"status":"ok","p99_us":-3`},
	} {
		line := `{"type":"result","schema":"gomb/v1",` + strings.Replace(good, c.from, c.to, 1) + "}\n"
		recs, bad := readAll(t, []byte(line))
		if len(recs) != 0 || len(bad) != 1 {
			t.Errorf("%s read as %d records", c.to, len(recs))
			continue
		}
		var r Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			continue // not even a Go value: nothing to write
		}
		if _, err := encodeOurs(&r); err == nil {
			t.Errorf("%s: the encoder writes what the decoder refuses", c.to)
		}
	}
	recs, bad := readAll(t, []byte(`{"type":"result","schema":"gomb/v1",`+good+"}\n"))
	if len(recs) != 1 || len(bad) != 0 {
		t.Fatalf("the good record: %d, %v", len(recs), bad)
	}
	if _, err := encodeOurs(recs[0]); err != nil {
		t.Errorf("the good record is not written: %v", err)
	}
}
