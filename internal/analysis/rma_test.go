package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/result"
)

// TestOneSidedOverTCP: puts of hundreds of µs between two nodes over TCP
// are said for what they are — software RMA without asynchronous
// progress — with the run's two-sided latency where it has one; not on
// an RDMA transport, and not on one node.
func TestOneSidedOverTCP(t *testing.T) {
	tcp := map[string]string{"nodes": "2", "nodes_from": "srun -N 2", "fabric": "tcp", "fabric_from": "FI_PROVIDER=tcp"}
	run := func(meta map[string]string, loc string, with ...*result.Bundle) *result.Bundle {
		r := mkRun("osu", "put_latency", 2, loc, pingpong(310, 900, one), nil)
		for _, w := range with {
			r.Results = append(r.Results, w.Results...)
		}
		r.Run.Source = &result.Source{Format: "osu", Meta: meta}
		return r
	}
	lat := mkRun("osu", "latency", 2, result.InterNode, pingpong(28, 1100, one), nil)
	for _, c := range []struct {
		name string
		run  *result.Bundle
		says string // "" none
	}{
		{"put alone, TCP", run(tcp, result.InterNode), "put_latency (np 2) 310.0 µs at 1 B: software RMA over TCP without asynchronous progress"},
		{"put beside osu_latency", run(tcp, result.InterNode, lat), "11× the run's two-sided latency (osu_latency 28.0 µs)"},
		{"no transport named", run(map[string]string{"nodes": "2", "nodes_from": "srun -N 2"}, result.InterNode), "software RMA over TCP"},
		{"verbs named", run(map[string]string{"fabric": "verbs", "fabric_from": "FI_PROVIDER=verbs"}, result.InterNode), ""},
		{"one node", run(map[string]string{"nodes": "1", "nodes_from": "srun -N 1"}, result.IntraNode), ""},
	} {
		f := find(Explain(c.run, ExplainOptions{}), KindOneSided)
		switch {
		case c.says == "" && f != nil:
			t.Errorf("%s: %+v", c.name, f)
		case c.says != "" && (f == nil || f.Severity != Info || !strings.Contains(f.Summary+" "+strings.Join(f.Numbers, " "), c.says) ||
			!strings.Contains(f.Cause, "asynchronous progress")):
			t.Errorf("%s: %+v, want %q", c.name, f, c.says)
		}
	}
}

// TestBandwidthOnlyClass: a run of bandwidth tests alone (no ping-pong
// in it or its log) gets a reading of its fabric from its peak: the
// slowest link that carries it, with the published bandwidths nearest;
// none for two ranks of a larger job, which most likely share a node.
func TestBandwidthOnlyClass(t *testing.T) {
	bw := func(peak float64, world int) *result.Bundle {
		var pts []pt
		for b := int64(1); b <= 4<<20; b *= 2 {
			pts = append(pts, pt{bytes: b, bw: float64(b) / (2 + float64(b)/peak)})
		}
		r := mkRun("osu", "bw", 2, "", pts, nil)
		r.Run.WorldSize = world
		return r
	}
	for _, c := range []struct {
		peak  float64
		world int
		says  string
	}{
		{117, 2, "a link of 1 Gb/s or faster (Gigabit Ethernet and up)"},
		{1150, 2, "a link of 10 Gb/s or faster"},
		{11800, 2, "a link of 100 Gb/s or faster"},
		{11800, 112, ""},
	} {
		f := find(Explain(bw(c.peak, c.world), ExplainOptions{}), KindFabric)
		switch {
		case c.says == "" && f != nil:
			t.Errorf("%g MB/s, world %d: %+v", c.peak, c.world, f)
		case c.says != "" && (f == nil || f.Severity != Info || !strings.Contains(f.Summary, c.says) || !strings.Contains(strings.Join(f.Numbers, " "), "published bandwidths nearest it")):
			t.Errorf("%g MB/s: %+v, want %q", c.peak, f, c.says)
		}
	}
}

// TestShowTail: IMB -show_tail's percentile lines under the rows are kept
// in the records (result.Tail, the slowest repetition as percentile 100)
// and read: a slowest repetition 100× the mean is a tail, not nothing.
func TestShowTail(t *testing.T) {
	log := `#----------------------------------------------------------------
# Intel(R) MPI Benchmarks 2021.11, MPI-1 part
#----------------------------------------------------------------
# Calling sequence was:

# IMB-MPI1 -show_tail on PingPong

#---------------------------------------------------
# Benchmarking PingPong
# #processes = 2
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         1.20         0.00
# tail: p50 = 1.10 p90 = 1.31 p99 = 2.02 max = 120.40 usec
            8         1000         1.22         6.56
# tail: p50 = 1.12 p90 = 1.33 p99 = 2.10 max = 122.10 usec
           16         1000         1.25        12.80
#  50%: 1.15  90%: 1.36  99%: 2.20  99.9%: 40.1  max: 3.10
`
	f, err := importer.Import([]byte(log), "imb-tail.log", importer.Options{})
	if err != nil || len(f.Runs) != 1 || len(f.Runs[0].Results) != 3 {
		t.Fatalf("%v %+v", err, f)
	}
	rs := f.Runs[0].Results
	if max, ok := rs[1].TailAt(100); !ok || max != 122.10 {
		t.Errorf("8 B: tail %+v", rs[1].Tail)
	}
	if p99, ok := rs[2].TailAt(99); !ok || p99 != 2.20 || len(rs[2].Tail) != 4 { // 99.9% has no whole percentile
		t.Errorf("16 B: tail %+v", rs[2].Tail)
	}
	var tail *Finding
	for _, x := range Explain(f.Runs[0], ExplainOptions{}) {
		if x.Kind == KindVariability && strings.Contains(x.Summary, "tail") {
			tail = &x
		}
	}
	if tail == nil || tail.Severity != Info || !strings.Contains(tail.Summary, "0 B and 8 B") || !strings.Contains(tail.Numbers[0], "(100×)") {
		t.Errorf("tail: %+v", tail)
	}
}
