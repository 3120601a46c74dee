package analysis

import (
	"strings"
	"testing"

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
