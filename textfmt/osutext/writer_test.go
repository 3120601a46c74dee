package osutext

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestWriterGolden(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	table := func(name string, mod func(*osu.Options)) *osu.Table {
		s, ok := osu.Lookup(name)
		if !ok {
			t.Fatalf("no test %s", name)
		}
		o := osu.DefaultOptions()
		if mod != nil {
			mod(&o)
		}
		return &osu.Table{Spec: s, Opt: &o, NP: 4, Win: s.Win, Sync: s.Sync}
	}
	row := func(size int64) *result.Result {
		return &result.Result{Bytes: size, TMinUS: 0.5, TMaxUS: 1.5, TAvgUS: 1, MBps: 1234.5, MsgPerSec: 2071583.67,
			Repetitions: 1000, P50US: 0.9, P90US: 1.2, P99US: 3.4}
	}
	must(w.Table(table("latency", func(o *osu.Options) { o.Percentiles, o.Validate = true, true })))
	r := row(1)
	r.Check = &result.Check{Passed: true}
	must(w.Result(r))
	r = row(2)
	r.Check = &result.Check{Passed: false, Detail: "rank 1: 1 wrong elements, first at element 0: got 1, want 2"}
	must(w.Result(r))
	must(w.Table(table("bw", nil)))
	must(w.Result(row(1024)))
	must(w.Table(table("mbw_mr", nil)))
	must(w.Result(row(8)))
	must(w.Table(table("put_latency", func(o *osu.Options) { o.Device, o.Place = "", [2]byte{'H', 'H'} })))
	must(w.Result(row(4)))
	tb := table("latency", func(o *osu.Options) { o.Device, o.Place = "cuda", [2]byte{'D', 'H'} })
	tb.Staged = true
	must(w.Table(tb))
	must(w.Result(row(8)))
	must(w.Table(table("allreduce", func(o *osu.Options) { o.Full, o.Type = true, kernel.Float })))
	must(w.Result(row(4)))
	must(w.Result(&result.Result{Benchmark: "allreduce", NP: 4, Bytes: 8, Status: result.StatusMPIError,
		Reason: "kernel: MPI error 5: Invalid communicator, error stack: PMPI_Wait(204): MPI_Wait(request=0x7ffd, status=0x1) failed"}))
	must(w.Table(table("barrier", func(o *osu.Options) { o.Full = true })))
	must(w.Result(row(0)))
	must(w.Table(table("ialltoall", nil)))
	r = row(1)
	r.NBC = &result.NBC{OverallUS: 11.38, ComputeUS: 6.44, PureUS: 5.26, OverlapPct: 6.14, InitUS: 1, TestUS: 2, WaitUS: 3, MinCommUS: 4, MaxCommUS: 6}
	must(w.Result(r))
	must(w.Table(table("ibarrier", func(o *osu.Options) { o.Full = true })))
	r = row(0)
	r.NBC = &result.NBC{OverallUS: 11.38, ComputeUS: 6.44, PureUS: 5.26, OverlapPct: 6.14}
	must(w.Result(r))
	must(w.Table(table("oneway", nil)))
	r = row(1)
	r.OneWay = &result.OneWay{HalfRTTUS: 0.21, ForwardUS: 0.17, BackwardUS: 0.22, ErrorUS: 0.15}
	must(w.Result(r))
	testutil.Golden(t, filepath.Join("testdata", "writer.golden"), buf.Bytes(), *update)
	if err := NewWriter(&buf).Result(row(1)); err == nil {
		t.Error("a row without a table was accepted")
	}
	buf.Reset() // an MPI error can come before the test's table: its line needs none
	if err := NewWriter(&buf).Result(&result.Result{Benchmark: "bcast", NP: 2, Status: result.StatusMPIError, Reason: "x"}); err != nil ||
		buf.String() != "# mpi-error: bcast, np 2, 0 bytes: x\n" {
		t.Errorf("an mpi-error row without a table: %v, %q", err, buf.String())
	}
}
