package congestiontext

import (
	"bytes"
	"flag"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/bench/congestion"
	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestWriterGolden: the header says which nodes run what, a line a row,
// and the impact factors at the end (an interval from several trials,
// none from one).
func TestWriterGolden(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	o := congestion.DefaultOptions()
	o.Seed = 0
	l, err := congestion.Plan(fleet.Nodes([]string{"c01", "c02", "c03", "c04", "c05", "c06", "c07"}), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Header(Header{Tool: "gomb 0.1.0", Date: time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC),
		Argv: []string{"gomb", "congestion"}, Layout: l, Opt: o}); err != nil {
		t.Fatal(err)
	}
	for _, phase := range []string{congestion.Isolated, congestion.Congested} {
		for _, test := range congestion.Tests {
			r := &result.Result{Benchmark: test, TAvgUS: 2.5, P50US: 2.25, P99US: 7.5,
				Congestion: &result.Congestion{Phase: phase}}
			if test == congestion.RRBandwidth {
				r.MBps = 4061.4
			}
			w.Result(r)
		}
	}
	w.Result(&result.Result{Benchmark: "PingPong"}) // not a canary's: nothing
	c := &analysis.Congestion{Trials: 3, Canaries: []string{"c01", "c02"},
		Congestors: []result.CongestorLoad{{Pattern: "alltoall", Hosts: []string{"c03", "c05", "c07"}, MBps: 812.5}},
		Tests: []analysis.CongestionTest{
			{Name: congestion.RRLatency, Units: "usec", Isolated: analysis.Reading{Avg: 2.9, P99: 4.3}, Congested: analysis.Reading{Avg: 8.7, P99: 21.5},
				CIFAvg: analysis.Interval{Value: 3, Low: 2.5, High: 3.6}, CIFP99: analysis.Interval{Value: 5, Low: 4, High: 6.2}},
			{Name: congestion.RRBandwidth, Bandwidth: true, Units: "MB/s/rank", Isolated: analysis.Reading{Avg: 4061.4, P99: 2829.5},
				Congested: analysis.Reading{Avg: 4057.7, P99: 2820.6}, CIFAvg: analysis.Interval{Value: 1, Low: math.NaN(), High: math.NaN()},
				CIFP99: analysis.Interval{Value: 1, Low: math.NaN(), High: math.NaN()}},
		}}
	if err := w.Footer(c); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", "congestion.golden"), buf.Bytes(), *update)
}
