package importer

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// inputs are the logs in testdata/: real IMB-MPI1, OSU and mpi-comm-bench
// output (from ../shared/formats and the seeds), gomb's own tables and
// records, and hand-made logs in the styles of older releases.
func inputs(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob("testdata/*.*")
	if err != nil || len(names) == 0 {
		t.Fatalf("no inputs in testdata: %v", err)
	}
	return names
}

// dump is a File as the golden files hold it: what was found, then the
// records exactly as gomb import writes them.
func dump(t *testing.T, f *File) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# format %s, %d runs, %d foreign lines, %d problems\n", f.Format, len(f.Runs), f.Foreign, len(f.Problems))
	for _, p := range f.Problems {
		fmt.Fprintf(&b, "# problem %v\n", p)
	}
	for _, r := range f.Runs {
		if err := r.Encode(&b); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// TestGolden imports every log in testdata and compares the records with
// testdata/golden/NAME.golden (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range inputs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Import(data, name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Runs) == 0 {
				t.Fatal("no runs")
			}
			testutil.Golden(t, filepath.Join("testdata", "golden", filepath.Base(name)+".golden"), dump(t, f), *update)
		})
	}
}

func load(t *testing.T, name string, opt Options) *File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Import(data, name, opt)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// find returns the result of a run with that benchmark, np, size and group.
func find(rs []*result.Result, bench string, np int, bytes int64, group int) *result.Result {
	for _, r := range rs {
		if r.Benchmark == bench && r.NP == np && r.Bytes == bytes && r.Group == group {
			return r
		}
	}
	return nil
}

// TestFacts checks, file by file, the facts the golden files could hide
// behind an -update: the numbers and labels a user relies on.
// suiteFacts checks an IMB log of suite: every row of it, the rows of
// each mode, and the threads IMB-MT names.
func suiteFacts(suite string, aggregate, nonAggregate int, threads string) func(t *testing.T, f *File) {
	return func(t *testing.T, f *File) {
		b := f.Runs[0]
		if b.Run.Suite != suite || b.Run.Tool.Version != "2021.11" || b.Run.Source.Meta["threads"] != threads {
			t.Errorf("run suite %q, tool %+v, threads %q", b.Run.Suite, b.Run.Tool, b.Run.Source.Meta["threads"])
		}
		modes := map[string]int{}
		for _, r := range b.Results {
			modes[r.Mode]++
			if r.Suite != suite {
				t.Errorf("%s %d B: suite %q", r.Benchmark, r.Bytes, r.Suite)
			}
		}
		if modes[result.ModeAggregate] != aggregate || modes[result.ModeNonAggregate] != nonAggregate {
			t.Errorf("modes %v, want %d aggregate and %d non-aggregate rows", modes, aggregate, nonAggregate)
		}
	}
}

func TestFacts(t *testing.T) {
	type want struct {
		bench               string
		np                  int
		bytes               int64
		group               int
		reps                int
		tmin, tmax, tavg, b float64
		status              string
	}
	cases := []struct {
		file     string
		format   textfmt.Format
		runs     int
		problems []string // file:line prefixes
		rows     []want   // in the first run unless run is set
		check    func(t *testing.T, f *File)
	}{
		{file: "imb_np2_p2p_coll.txt", format: IMB, runs: 1, rows: []want{
			{"PingPong", 2, 0, -1, 1000, 0.44, 0.44, 0.44, 0, "ok"},
			{"PingPong", 2, 4194304, -1, 10, 1443.44, 1443.44, 1443.44, 2905.77, "ok"},
			{"Allreduce", 2, 4, -1, 1000, 0.70, 4.97, 2.84, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			r := f.Runs[0].Run
			if r.Tool.Name != "Intel(R) MPI Benchmarks" || r.Tool.Version != "2021.11" || r.MPI.Standard != "3.1" {
				t.Errorf("tool %+v, MPI %+v", r.Tool, r.MPI)
			}
			if r.Start.Format("2006-01-02 15:04:05") != "2026-11-30 03:32:03" {
				t.Errorf("date %v", r.Start)
			}
			if got := strings.Join(r.Command, " "); !strings.HasPrefix(got, "IMB-MPI1 PingPong PingPing") {
				t.Errorf("calling sequence %q", got)
			}
		}},
		// IMB's other suites: one run each, its suite from the banner, the
		// modes of IMB-EXT/RMA/IO's tables kept apart, IMB-MT's threads
		{file: "imb_ext_np2_msglog6_iter100.txt", format: IMB, runs: 1, check: suiteFacts("imb-ext", 30, 30, "")},
		{file: "imb_rma_np2.txt", format: IMB, runs: 1, check: suiteFacts("imb-rma", 33, 33, "")},
		{file: "imb_io_np2.txt", format: IMB, runs: 1, check: suiteFacts("imb-io", 15, 5, "")},
		{file: "imb_p2p_np2.txt", format: IMB, runs: 1, check: suiteFacts("imb-p2p", 0, 0, "")},
		// the stencil's grid in its title is not part of its name
		{file: "imb_p2p_np4.txt", format: IMB, runs: 1, check: suiteFacts("imb-p2p", 0, 0, ""), rows: []want{
			{"Stencil2D", 4, 0, -1, 50, 1.16, 1.16, 1.16, 0, "ok"},
			{"Stencil2D", 4, 8, -1, 50, 1.13, 1.13, 1.13, 27.86, "ok"},
			{"PingPong", 4, 1, -1, 50, 2.89, 2.89, 2.89, 0.67, "ok"},
		}},
		{file: "imb_mt_np2.txt", format: IMB, runs: 1, check: suiteFacts("imb-mt", 0, 0, "1")},
		{file: "imb_nbc_np2_msglog10_iter100.txt", format: IMB, runs: 1, check: suiteFacts("imb-nbc", 0, 0, "")},
		{file: "imb_mpi4_np2_msglog10_iter100.txt", format: IMB, runs: 1, check: suiteFacts("imb-mpi4", 0, 0, "")},
		{file: "imb_np4_npmin2.txt", format: IMB, runs: 1, rows: []want{
			{"PingPong", 2, 0, -1, 1000, 0, 0, 0, 0, "ok"},
			{"Allreduce", 2, 0, -1, 1000, 0, 0, 0, 0, "ok"},
			{"Allreduce", 4, 0, -1, 1000, 0, 0, 0, 0, "ok"},
		}},
		{file: "imb_np2_mem0.005.txt", format: IMB, runs: 1, rows: []want{
			{"PingPong", 2, 4194304, -1, 0, 0, 0, 0, 0, result.StatusOutOfMem},
		}, check: func(t *testing.T, f *File) {
			if r := find(f.Runs[0].Results, "PingPong", 2, 4194304, -1); r == nil || r.NeededGB != 0.009 {
				t.Errorf("needed GB: %+v", r)
			}
		}},
		{file: "imb_np2_time0.001.txt", format: IMB, runs: 1, rows: []want{
			{"PingPong", 2, 128, -1, 0, 0, 0, 0, 0, result.StatusTimeOut},
		}},
		{file: "imb-fabric-comparison-blog.txt", format: IMB, runs: 3, check: func(t *testing.T, f *File) {
			first := f.Runs[0]
			if first.Run.Tool.Version != "2021.10" || first.Run.Start.Year() != 2026 {
				t.Errorf("first run: %+v %v", first.Run.Tool, first.Run.Start)
			}
			if first.Run.WorldSize != 3 { // "( 1 additional process waiting in MPI_Barrier)"
				t.Errorf("world size %d", first.Run.WorldSize)
			}
			if got := strings.Join(first.Run.Hosts, ","); got != "dell1,dell2,dell3" {
				t.Errorf("hosts %q", got)
			}
			for i, r := range f.Runs {
				if len(r.Results) != 24 {
					t.Errorf("run %d: %d results", i, len(r.Results))
				}
				for _, x := range r.Results {
					if x.Benchmark != "PingPong" || x.NP != 2 || x.Locality != result.InterNode {
						t.Fatalf("run %d: %+v", i, x)
					}
				}
			}
			if f.Runs[2].Run.Env["I_MPI_FABRICS"] == "" && f.Runs[1].Run.Env["I_MPI_FABRICS"] == "" {
				t.Error("the exported I_MPI_ variables are lost")
			}
		}},
		{file: "imb2018_np3_slurm.txt", format: IMB, runs: 1, problems: []string{"imb2018_np3_slurm.txt:63:"}, rows: []want{
			{"PingPong", 2, 32, -1, 1000, 1.19, 1.19, 1.19, 26.89, "ok"},
			{"Allreduce", 2, 32, -1, 1000, 1.43, 1.45, 1.44, 0, "ok"},
			{"Allreduce", 3, 16, -1, 1000, 2.58, 2.61, 2.60, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			r := f.Runs[0]
			if r.Run.Tool.Version != "2018 Update 1" || find(r.Results, "Allreduce", 3, 32, -1) != nil {
				t.Errorf("tool %+v; the malformed row must be skipped", r.Run.Tool)
			}
			if f.Foreign < 3 {
				t.Errorf("%d foreign lines: srun and Open MPI lines are not table rows", f.Foreign)
			}
		}},
		{file: "imb2019_np2_twice.txt", format: IMB, runs: 2, rows: []want{
			{"Sendrecv", 2, 1048576, -1, 200, 176.05, 176.12, 176.08, 11907.43, "ok"},
		}, check: func(t *testing.T, f *File) {
			a, b := f.Runs[0].Run, f.Runs[1].Run
			if a.Env["I_MPI_FABRICS"] != "shm:ofi" || b.Env["I_MPI_FABRICS"] != "shm:tcp" {
				t.Errorf("env %v / %v", a.Env, b.Env)
			}
			if a.Source.Meta["launch"] == "" || a.Source.Line >= b.Source.Line {
				t.Errorf("sources %+v / %+v", a.Source, b.Source)
			}
			if x := find(f.Runs[1].Results, "Sendrecv", 2, 4194304, -1); x == nil || x.MBps != 1178.70 || x.Locality != result.InterNode {
				t.Errorf("second run: %+v", x)
			}
		}},
		{file: "gomb_imb_np4_multi1.txt", format: IMB, runs: 1, check: func(t *testing.T, f *File) {
			rs := f.Runs[0].Results
			for _, g := range []int{0, 1} {
				for _, b := range []string{"PingPong", "Allreduce"} {
					x := find(rs, b, 2, 16, g)
					if x == nil || x.Groups != 2 || x.TAvgUS <= 0 {
						t.Errorf("%s group %d: %+v", b, g, x)
					}
				}
			}
			if f.Runs[0].Run.Tool.Name != "gomb" {
				t.Errorf("tool %+v", f.Runs[0].Run.Tool)
			}
		}},
		{file: "gomb_imb_np4_multi0.txt", format: IMB, runs: 1, check: func(t *testing.T, f *File) {
			if x := find(f.Runs[0].Results, "Bcast", 2, 16, -1); x == nil || x.Groups != 2 {
				t.Errorf("multi 0 Bcast: %+v", x)
			}
		}},
		{file: "osu_latency_np2.txt", format: OSU, runs: 1, check: func(t *testing.T, f *File) {
			r := f.Runs[0]
			if r.Run.Tool.Version != "7.2" || r.Run.Source.Meta["Datatype"] != "MPI_CHAR" || len(r.Results) != 23 {
				t.Errorf("%+v %v %d", r.Run.Tool, r.Run.Source.Meta, len(r.Results))
			}
		}},
		// OSU 7.2's persistent point-to-point tests, by their titles
		{file: "osu_latency_persistent_np2.txt", format: OSU, runs: 1, rows: []want{
			{"latency_persistent", 2, 1, -1, 0, 0.50, 0.50, 0.50, 0, "ok"},
		}},
		{file: "osu_bw_persistent_np2.txt", format: OSU, runs: 1, rows: []want{
			{"bw_persistent", 2, 4194304, -1, 0, 0, 0, 0, 9027.02, "ok"},
		}},
		// OSU 7.4's persistent collectives (-f: min, max, iterations)
		{file: "osu74_allreduce_persistent_f_np2.txt", format: OSU, runs: 1, rows: []want{
			{"allreduce_persistent", 2, 1024, -1, 1000, 81.33, 145.53, 113.43, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			if v := f.Runs[0].Run.Tool.Version; v != "7.4" {
				t.Errorf("OSU version %q", v)
			}
		}},
		{file: "osu74_ireduce_scatter_block_np2.txt", format: OSU, runs: 1, check: func(t *testing.T, f *File) {
			r := f.Runs[0].Results
			if len(r) != 21 || r[0].Benchmark != "ireduce_scatter_block" || r[0].NBC == nil {
				t.Errorf("%d results, first %+v", len(r), r[0])
			}
		}},
		// OSU 7.4's fan tests: osu_bw's title over "Avg Latency(us)" that
		// holds MB/s; the file's name says which
		{file: "osu74_bw_fan_in_np2.txt", format: OSU, runs: 1, rows: []want{
			{"bw_fan_in", 2, 4194304, -1, 0, 0, 0, 0, 586.36, "ok"},
		}},
		{file: "osu74_bw_fan_out_np2.txt", format: OSU, runs: 1, rows: []want{
			{"bw_fan_out", 2, 4194304, -1, 0, 0, 0, 0, 434.29, "ok"},
		}},
		// OSU 7.4's -z25,75,99: tail columns by their headers
		{file: "osu74_allreduce_persistent_z_np2.txt", format: OSU, runs: 1, rows: []want{
			{"allreduce_persistent", 2, 1024, -1, 0, 2.19, 2.19, 2.19, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			rs := f.Runs[0].Results
			got := rs[len(rs)-1].Tail
			want := []result.Tail{{P: 25, Value: 2.02}, {P: 75, Value: 2.20}, {P: 99, Value: 4.52}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tail %v, want %v", got, want)
			}
		}},
		// the start-up tests: one line each, milliseconds
		{file: "osu_init_np2.txt", format: OSU, runs: 1, rows: []want{
			{"init", 2, 0, -1, 1, 300000, 306000, 303000, 0, "ok"},
		}},
		{file: "gomb_osu_init_np3.txt", format: OSU, runs: 1, rows: []want{
			{"init", 3, 0, -1, 1, 157000, 181000, 167000, 0, "ok"},
		}},
		{file: "osu_hello_np4.txt", format: OSU, runs: 1, rows: []want{
			{"hello", 4, 0, -1, 1, 0, 0, 0, 0, "ok"},
		}},
		// osu_latency_mp: its process lines before its title, values 10 wide
		{file: "osu_latency_mp_np2.txt", format: OSU, runs: 1, rows: []want{
			{"latency_mp", 2, 4194304, -1, 0, 3244.01, 3244.01, 3244.01, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			if m := f.Runs[0].Run.Source.Meta; m["Number of forked processes in sender"] != "2" {
				t.Errorf("process lines not read: %v", m)
			}
		}},
		// osu_latency_mt: its thread lines come before its title
		{file: "osu_latency_mt_np2.txt", format: OSU, runs: 1, rows: []want{
			{"latency_mt", 2, 4194304, -1, 0, 2000.13, 2000.13, 2000.13, 0, "ok"},
		}},
		{file: "gomb_osu_latency_mt_t2-3_np2.txt", format: OSU, runs: 1, rows: []want{
			{"latency_mt", 2, 1024, -1, 0, 8436.03, 8436.03, 8436.03, 0, "ok"},
		}, check: func(t *testing.T, f *File) {
			m := f.Runs[0].Run.Source.Meta
			if m["Number of Sender threads"] != "2" || m["Number of Receiver threads"] != "3" {
				t.Errorf("thread lines not read: %v", m)
			}
		}},
		// gomb's fan output: its layout line names the test and the ranks
		{file: "gomb_osu_bw_fan_out_np4.txt", format: OSU, runs: 1, rows: []want{
			{"bw_fan_out", 4, 65536, -1, 0, 0, 0, 0, 82.80, "ok"},
		}},
		{file: "osu5_latency.txt", format: OSU, runs: 1, rows: []want{
			{"latency", 2, 1048576, -1, 0, 146.81, 146.81, 146.81, 0, "ok"},
		}},
		{file: "osu5_mbw_mr_np4.txt", format: OSU, runs: 1, rows: []want{
			{"mbw_mr", 4, 8, -1, 0, 0, 0, 0, 46.55, "ok"},
		}},
		{file: "osu6_allreduce_np4.txt", format: OSU, runs: 1, rows: []want{
			{"allreduce", 4, 64, -1, 0, 2.71, 2.71, 2.71, 0, "ok"},
		}},
		{file: "osu7_bcast_f_np4.txt", format: OSU, runs: 1, rows: []want{
			{"bcast", 4, 8, -1, 1000, 0.74, 2.10, 1.51, 0, "ok"},
		}},
		{file: "osu_allreduce_f_np2.txt", format: OSU, runs: 1},
		{file: "osu5_ibarrier_np4.txt", format: OSU, runs: 1, check: func(t *testing.T, f *File) {
			x := f.Runs[0].Results[0]
			if x.Benchmark != "ibarrier" || x.NBC == nil || x.NBC.OverallUS != 6.12 || x.NBC.OverlapPct != 1.02 || x.NP != 4 {
				t.Errorf("%+v %+v", x, x.NBC)
			}
		}},
		{file: "osu_put_latency_np2.txt", format: OSU, runs: 1, check: func(t *testing.T, f *File) {
			m := f.Runs[0].Run.Source.Meta
			if m["Window creation"] == "" || m["Synchronization"] == "" || f.Runs[0].Results[0].Benchmark != "put_latency" {
				t.Errorf("meta %v", m)
			}
		}},
		{file: "ring_np2_default.txt", format: Ring, runs: 1, check: func(t *testing.T, f *File) {
			if n := len(f.Runs[0].Results); n != 5 {
				t.Errorf("%d samples", n)
			}
			x := f.Runs[0].Results[0]
			if x.Benchmark != "ring" || x.Bytes != 1048576 || x.TAvgUS <= 0 || x.MBps <= 0 {
				t.Errorf("%+v", x)
			}
		}},
		{file: "gomb_ring_np2.txt", format: Ring, runs: 1, check: func(t *testing.T, f *File) {
			rs := f.Runs[0].Results
			if len(rs) != 4 || !rs[0].Cold {
				t.Errorf("%d samples, the first one cold: %+v", len(rs), rs[0])
			}
		}},
		{file: "gomb_records_osu_bw_np2.jsonl", format: Records, runs: 1, check: func(t *testing.T, f *File) {
			r := f.Runs[0]
			if r.End == nil || len(r.Results) != 5 || len(r.Results[0].SamplesUS[0]) != 100 || r.Run.Source.Format != "gomb" {
				t.Errorf("end %v, %d results, %+v", r.End, len(r.Results), r.Run.Source)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f := load(t, c.file, Options{})
			if f.Format != c.format || len(f.Runs) != c.runs {
				t.Fatalf("format %s with %d runs, want %s with %d", f.Format, len(f.Runs), c.format, c.runs)
			}
			if len(f.Problems) != len(c.problems) {
				t.Errorf("problems %v, want %v", f.Problems, c.problems)
			}
			for i, p := range c.problems {
				if i < len(f.Problems) && !strings.HasPrefix(f.Problems[i].Error(), p) {
					t.Errorf("problem %q, want it at %s", f.Problems[i], p)
				}
			}
			for _, w := range c.rows {
				x := find(f.Runs[0].Results, w.bench, w.np, w.bytes, w.group)
				if x == nil {
					t.Errorf("no %s np=%d %d bytes", w.bench, w.np, w.bytes)
					continue
				}
				if x.Status != w.status || w.status == "ok" && (x.Repetitions != w.reps ||
					w.tavg != 0 && (x.TMinUS != w.tmin || x.TMaxUS != w.tmax || x.TAvgUS != w.tavg) || x.MBps != w.b) {
					t.Errorf("%s %d bytes: %+v, want %+v", w.bench, w.bytes, x, w)
				}
			}
			for _, r := range f.Runs {
				if r.Run.RunID == "" || r.Run.Source == nil || r.Run.Source.Hash == "" {
					t.Errorf("run without id or source: %+v", r.Run)
				}
				for _, x := range r.Results {
					if x.RunID != r.Run.RunID || x.Type != result.TypeResult {
						t.Fatalf("result not tied to its run: %+v", x)
					}
				}
			}
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

// TestOptions: labels, np and locality from the command line reach every
// run and fill only what the log does not say.
func TestOptions(t *testing.T) {
	opt := Options{Labels: map[string]string{"system": "hpc4", "config": "xpmem", "fw": "1.2"}, NP: 8, Locality: result.IntraNode}
	f := load(t, "osu6_allreduce_np4.txt", opt)
	r := f.Runs[0]
	if r.Run.Labels["system"] != "hpc4" || r.Run.Labels["fw"] != "1.2" || r.Run.WorldSize != 8 {
		t.Errorf("run %+v", r.Run)
	}
	for _, x := range r.Results {
		if x.NP != 8 || x.Locality != result.IntraNode { // -np beats "np4" in the file name
			t.Fatalf("%+v", x)
		}
	}
	if f := load(t, "osu6_allreduce_np4.txt", Options{}); f.Runs[0].Results[0].NP != 4 {
		t.Errorf("np from the file name: %+v", f.Runs[0].Results[0])
	}
	opt.Labels["system"] = "changed" // the runs keep their own copy
	if r.Run.Labels["system"] != "hpc4" {
		t.Error("labels shared with the options")
	}
	f = load(t, "imb-fabric-comparison-blog.txt", opt)
	if x := f.Runs[0].Results[0]; x.Locality != result.InterNode || x.NP != 2 {
		t.Errorf("the log's own locality and np must win: %+v", x)
	}
}

// TestNotALog: content in no known format is one error naming the file.
func TestNotALog(t *testing.T) {
	for _, data := range []string{"", "hello\nworld\n", "\x00\x01\x02", "# Size Latency\n1 2\n", `{"type":"run"}`} {
		_, err := Import([]byte(data), "x.log", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "x.log: not an IMB-MPI1 log") {
			t.Errorf("%q: %v", data, err)
		}
	}
}

// TestRecordsRoundTrip: gomb's records imported and written again are the
// same bytes, but for the source the import adds.
func TestRecordsRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/gomb_records_osu_bw_np2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Import(data, "x.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range f.Runs {
		if r.Run.Source == nil || r.Run.Source.File != "x.jsonl" {
			t.Errorf("source %+v", r.Run.Source)
		}
		r.Run.Source = nil
		if err := r.Encode(&b); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != string(data) {
		t.Errorf("records changed on the way:\n%s", testutil.Diff(string(data), b.String()))
	}
}

// TestSameContentSameIDs: the run ids come from the content, so that the
// archive can tell a log it already has.
func TestSameContentSameIDs(t *testing.T) {
	a := load(t, "imb2019_np2_twice.txt", Options{})
	b, err := Import(mustRead(t, "testdata/imb2019_np2_twice.txt"), "elsewhere/renamed.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Runs {
		if a.Runs[i].Run.RunID != b.Runs[i].Run.RunID {
			t.Errorf("run %d: %s vs %s", i, a.Runs[i].Run.RunID, b.Runs[i].Run.RunID)
		}
	}
	if a.Runs[0].Run.RunID == a.Runs[1].Run.RunID {
		t.Error("two runs of one file share an id")
	}
}

func mustRead(t testing.TB, name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestOSUFanUnnamed: an OSU 7.4 fan table in a file whose name does not
// say fan-in or fan-out is one problem, not osu_bw's latency.
func TestOSUFanUnnamed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "osu74_bw_fan_in_np2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Import(data, "bandwidth.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Error(), "fan_in or fan_out in its name") {
		t.Errorf("problems %v", f.Problems)
	}
	for _, b := range f.Runs {
		if len(b.Results) > 0 {
			t.Errorf("%d rows read as %s", len(b.Results), b.Results[0].Benchmark)
		}
	}
}
