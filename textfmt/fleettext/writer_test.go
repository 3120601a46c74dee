package fleettext

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestWriterGolden: the header says what runs, a pair's line comes with
// its bandwidth row, local ranks are shown where several take part.
func TestWriterGolden(t *testing.T) {
	for _, c := range []struct {
		file    string
		perNode string
		local   [2]int
	}{
		{"fleet.golden", fleet.PerNodeOne, [2]int{}},
		{"fleet_cross.golden", fleet.PerNodeCross, [2]int{0, 0}},
	} {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		opt := fleet.DefaultOptions()
		opt.PerNode = c.perNode
		nodes := fleet.Nodes([]string{"c001", "c002", "node-with-a-long-name"})
		h := Header{Tool: "gomb 0.1.0", Date: time.Date(2026, 12, 4, 13, 0, 0, 0, time.UTC), Argv: []string{"gomb", "fleet"},
			Nodes: nodes, Opt: opt, Rounds: 3, Pairs: 3, MaxPairs: 1}
		if err := w.Header(h); err != nil {
			t.Fatal(err)
		}
		for i, p := range [][2]string{{"c001", "c002"}, {"c002", "node-with-a-long-name"}} {
			pair := &result.Pair{Hosts: p, Ranks: [2]int{i, i + 1}, Local: c.local, Round: i}
			w.Result(&result.Result{Benchmark: fleet.Latency, Pair: pair, P50US: 1.52, TAvgUS: 1.61, P99US: 2.5})
			w.Result(&result.Result{Benchmark: fleet.Bandwidth, Pair: pair, MBps: 12345.678})
		}
		w.Footer()
		testutil.Golden(t, filepath.Join("testdata", c.file), buf.Bytes(), *update)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Result(&result.Result{Benchmark: fleet.Bandwidth, Pair: &result.Pair{}}); err == nil {
		t.Error("a bandwidth row without its latency row taken")
	}
}
