package imbtext

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testutil.Golden(t, filepath.Join("testdata", name), got, *update)
}

func spec(name string, fam imb.Family, bw float64) *imb.Spec {
	return &imb.Spec{Suite: "imb", Name: name, Kernel: kernel.PingPong, Family: fam, TimeScale: 1, BWScale: bw,
		Buffers: imb.SameBuffers}
}

func ok(b int64, reps int, tmin, tmax, tavg, mbps float64) *result.Result {
	return &result.Result{Bytes: b, Repetitions: reps, Status: result.StatusOK, TMinUS: tmin, TMaxUS: tmax,
		TAvgUS: tavg, MBps: mbps, Group: -1}
}

func TestWriterGolden(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Preamble(Header{Tool: "gomb 0.1.0 (IMB-MPI1 2021.11 compatible)",
		Date:    time.Date(2026, 11, 3, 3, 32, 3, 0, time.UTC),
		Machine: "x86_64", System: "Linux", Release: "6.1.0", Version: "#1 SMP PREEMPT_DYNAMIC @0",
		MPIVersion: "3.1", Argv: []string{"gomb", "imb", "PingPong", "Sendrecv"}, MaxMsg: 4194304,
		Type: "MPI_BYTE", RedType: "MPI_FLOAT", Benchmarks: []string{"PingPong", "Sendrecv"}}))

	pp := spec("PingPong", imb.SingleTransfer, 1)
	must(w.Table(&imb.Table{Spec: pp, NP: 2, Multi: -1, Groups: [][]int{{0, 1}}, Idle: 2, World: 4}))
	must(w.Result(ok(0, 1000, 0.4, 0.44, 0.42, 0)))
	must(w.Result(ok(4194304, 10, 1400, 1443.44, 1420, 2905.77)))
	big := ok(2147483648, 1, 213087.37, 213087.37, 213087.37, 10077.95)
	big.LargeCount = true
	must(w.Result(big))
	must(w.Result(&result.Result{Bytes: 8388608, Status: result.StatusOutOfMem, NeededGB: 0.0078125, Group: -1}))

	sr := spec("Sendrecv", imb.ParallelTransfer, 2)
	must(w.Table(&imb.Table{Spec: sr, NP: 3, Multi: -1, Groups: [][]int{{0, 1, 2}}, Idle: 1, World: 4}))
	must(w.Result(ok(1024, 1000, 15.27, 15.28, 15.275, 134.12)))
	must(w.Result(&result.Result{Bytes: 128, Status: result.StatusTimeOut, Group: -1}))
	must(w.Result(mpiError("Sendrecv", 3, 2048)))

	ar := spec("Allreduce", imb.Collective, 0)
	ar.Reduction = true
	must(w.Table(&imb.Table{Spec: ar, NP: 4, Multi: -1, Groups: [][]int{{0, 2, 1, 3}}, World: 4, MapP: 2, MapQ: 2, Check: true}))
	r := ok(4, 1000, 0.64, 0.66, 0.65, 0)
	r.Check = &result.Check{Passed: true}
	must(w.Result(r))
	r = ok(8, 1000, 0.62, 0.71, 0.66, 0)
	r.Check = &result.Check{Passed: false, Defects: 2, Detail: "rank 1: 2 wrong elements, first at element 0: got 3, want 4"}
	r.Benchmark, r.NP = "Allreduce", 4
	must(w.Result(r))
	must(w.Result(&result.Result{Bytes: 2147483648, Status: result.StatusIntOverflow, Group: -1,
		Reason: "Allreduce of 2147483648 bytes on 4 ranks needs a send buffer of 536870912 elements, past MPI's int counts (2147483647)"}))

	ba := spec("Barrier", imb.Sync, 0)
	must(w.Table(&imb.Table{Spec: ba, NP: 4, Multi: -1, Groups: [][]int{{0, 1, 2, 3}}, World: 4}))
	must(w.Result(ok(0, 1000, 47.99, 48, 48, 0)))

	ub := spec("Uniband", imb.MsgRate, 1)
	must(w.Table(&imb.Table{Spec: ub, NP: 2, Multi: -1, Groups: [][]int{{0, 1}}, World: 2}))
	u := ok(1, 1000, 1, 2, 1.5, 10.17)
	u.MsgPerSec = 10171716
	must(w.Result(u))

	must(w.Table(&imb.Table{Spec: pp, NP: 2, Multi: 0, Groups: [][]int{{0, 1}, {2, 3}}, World: 5, Idle: 1}))
	must(w.Result(ok(8, 1000, 0.42, 0.5, 0.46, 16)))

	must(w.Table(&imb.Table{Spec: pp, NP: 2, Multi: 1, Groups: [][]int{{0, 1}, {2, 3}}, World: 4}))
	for g := 0; g < 2; g++ {
		r := ok(8, 1000, 0.42, 0.5+float64(g), 0.46, 16)
		r.Group = g
		must(w.Result(r))
	}
	must(w.Result(&result.Result{Bytes: 16, Status: result.StatusTimeOut, Group: -1}))

	must(w.Invalid(pp, 1))
	must(w.Footer())
	golden(t, "writer.golden", buf.Bytes())

	// Every table row is made of 13-character columns.
	for _, l := range strings.Split(buf.String(), "\n") {
		if l == "" || strings.HasPrefix(l, "#") || strings.Contains(l, ".;") || strings.Contains(l, "int-overflow;") {
			continue
		}
		if len(l)%width != 0 {
			t.Errorf("row %q is %d characters, not a multiple of %d", l, len(l), width)
		}
	}
}

// mpiError is the row of a benchmark an MPI error ended on every rank.
func mpiError(name string, np int, size int64) *result.Result {
	return &result.Result{Benchmark: name, NP: np, Bytes: size, Status: result.StatusMPIError, Group: -1,
		Reason: "MPI_Send (GOMB_FAULT=mpi-error): MPI error 2: MPI_ERR_COUNT: invalid count argument"}
}

func TestResultBeforeTable(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Result(ok(0, 1, 0, 0, 0, 0)); err == nil {
		t.Error("a result without a table was accepted")
	}
	// an MPI error can come before the benchmark's table: its line needs none
	if err := w.Result(mpiError("Allreduce", 2, 0)); err != nil || buf.String() != "# "+textfmt.MPIErrorNote(mpiError("Allreduce", 2, 0))+"\n" {
		t.Errorf("an mpi-error row without a table: %v, %q", err, buf.String())
	}
}

// TestCappedSizes: user sizes above the maximum are named once in the
// header (IMB measures them at the maximum without a word).
func TestCappedSizes(t *testing.T) {
	for _, c := range []struct {
		capped []int64
		want   string
	}{
		{nil, ""},
		{[]int64{5000000, 1 << 30}, "# Lengths above the maximum of 4194304 bytes (-msglog) are measured at 4194304 bytes: 5000000 1073741824\n"},
	} {
		var b bytes.Buffer
		w := NewWriter(&b)
		if err := w.Preamble(Header{UserSizes: true, MaxMsg: 4 << 20, Capped: c.capped}); err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, l := range strings.SplitAfter(b.String(), "\n") {
			if strings.HasPrefix(l, "# Lengths above") {
				got += l
			}
		}
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.capped, got, c.want)
		}
	}
}

// TestPreambleOfEverySuite: each suite gomb runs has its preamble's
// blanks declared (a missing one would print empty "#" lines).
func TestPreambleOfEverySuite(t *testing.T) {
	for _, s := range imb.Suites {
		if p, ok := preambles[s]; !ok || p.rule == "" {
			t.Errorf("suite %s: no preamble", s)
		}
	}
}
