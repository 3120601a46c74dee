package analysis

import (
	"fmt"
	"github.com/gomb-hpc/gomb/internal/stats"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

func kinds(fs []Finding) string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Severity+":"+f.Kind)
	}
	return strings.Join(k, " ")
}

func find(fs []Finding, kind string) *Finding {
	for i := range fs {
		if fs[i].Kind == kind {
			return &fs[i]
		}
	}
	return nil
}

// TestExplainSeeds: the VMI tables switch protocol between 8 and 16 KiB,
// as the seed says; their latency (the logs name no hosts) fits RDMA
// fabrics, or shared memory, or EFA and TCP; the blog's InfiniBand runs
// (two nodes by their launch lines) fit RDMA only, its TCP run TCP only.
func TestExplainSeeds(t *testing.T) {
	for _, c := range []struct{ file, class string }{
		{"testdata/vmi_infiniband_latency_np2.txt", "fits shared memory (one node) or InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI)"},
		{"testdata/vmi_myrinet_latency_np2.txt", "fits shared memory (one node) or InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI)"},
		{"testdata/vmi_ethernet_latency_np2.txt", "fits AWS EFA (SRD) or kernel TCP/IP"},
	} {
		fs := Explain(load(t, c.file)[0], ExplainOptions{})
		var sw []string
		for _, f := range fs {
			if f.Kind == KindSwitch && strings.Contains(f.Summary, "a protocol switch") {
				sw = append(sw, fmt.Sprint(f.Sizes))
			}
		}
		if fmt.Sprint(sw) != "[[8192 16384]]" {
			t.Errorf("%s: protocol switches %v, want between 8 KiB and 16 KiB\n%s", c.file, sw, kinds(fs))
		}
		if f := find(fs, KindFabric); f == nil || !strings.Contains(f.Summary, c.class) {
			t.Errorf("%s: fabric %+v", c.file, f)
		}
		// α and the bandwidth per regime, with the fit's residual
		if f := find(fs, KindRegimes); f == nil || len(f.Numbers) < 2 || !strings.Contains(f.Numbers[len(f.Numbers)-1], "to 4 MiB: t ≈ ") ||
			!strings.Contains(f.Numbers[0], "rms residual") {
			t.Errorf("%s: regimes %+v", c.file, f)
		}
		// the step at the switch is the switch, not a cliff
		if f := find(fs, KindCliff); f != nil {
			t.Errorf("%s: cliff %+v at the protocol switch", c.file, f)
		}
	}
	blog := load(t, "../../importer/testdata/imb-fabric-comparison-blog.txt")
	for i, want := range []string{"1.52 µs fits InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI); the ranks are on different nodes",
		"1.52 µs fits InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI); the ranks are on different nodes",
		"105.8 µs fits kernel TCP/IP (Ethernet, or a fabric's TCP provider); the ranks are on different nodes"} {
		if f := find(Explain(blog[i], ExplainOptions{}), KindFabric); f == nil || !strings.Contains(f.Summary, want) || f.Severity != Info {
			t.Errorf("blog run %d: %+v", i, f)
		}
	}
	// A and B of the blog: TCP is some 70 times slower at small sizes.
	c, err := Compare("ib", blog[:2], "tcp", blog[2:], CompareOptions{})
	if err != nil || c.Series[0].Bands[0].Speed > 0.02 || c.Series[0].Bands[0].Speed < 0.01 {
		t.Errorf("blog IB vs TCP: %v %+v", err, c.Series)
	}
}

// TestExplainPlanted: each detector on a run made to show it, and a clean
// run that shows nothing to warn about.
func TestExplainPlanted(t *testing.T) {
	link100 := ExplainOptions{Link: Link{Gbps: 100, Source: "test"}}
	ranks := func(n int, slow int) func(*result.Result) {
		return func(x *result.Result) {
			for r := 0; r < n; r++ {
				m := x.TAvgUS
				if r == slow {
					m *= 1.5
				}
				x.Ranks, x.RankMeanUS = append(x.Ranks, r), append(x.RankMeanUS, m)
			}
		}
	}
	clean := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(0.3, 8000, one), nil)
	cases := []struct {
		name string
		run  *result.Bundle
		opt  ExplainOptions
		want string // severity:kind that must be among the findings
		none string // kind that must not be
	}{
		{"clean intra-node PingPong", clean, ExplainOptions{}, "info:fabric", "cliff"},
		{"imbalance in Allreduce", mkRun("imb", "Allreduce", 4, result.IntraNode, []pt{{bytes: 1024, tmin: 2, tmax: 9, tavg: 5},
			{bytes: 2048, tmin: 3, tmax: 12, tavg: 6}}, nil), ExplainOptions{}, "warning:variability", ""},
		// the seed's red flag, t_max > 3× t_min, at one size on one node:
		// the slowest rank 7 µs behind
		{"imbalance at one size on one node", mkRun("imb", "Allreduce", 4, result.IntraNode, []pt{{bytes: 1024, tmin: 2, tmax: 9, tavg: 5}}, nil),
			ExplainOptions{}, "warning:variability", ""},
		// …but 0.8 against 2.9 µs at one size is the healthy corpus' noise
		{"a small imbalance at one size is noise", mkRun("imb", "Allreduce", 4, result.IntraNode, []pt{{bytes: 1024, tmin: 0.8, tmax: 2.9, tavg: 1.9}}, nil),
			ExplainOptions{}, "info:variability", ""},
		{"imbalance at one size over nodes is their places", mkRun("imb", "Allreduce", 4, result.InterNode, []pt{{bytes: 1024, tmin: 2, tmax: 9, tavg: 5}}, nil),
			ExplainOptions{}, "info:variability", ""},
		{"imbalance in Bcast is by design", mkRun("imb", "Bcast", 4, result.IntraNode, []pt{{bytes: 1024, tmin: 2, tmax: 9, tavg: 5}}, nil),
			ExplainOptions{}, "info:variability", ""},
		{"bimodal repetitions", mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(0.3, 8000, one), func(x *result.Result) {
			if x.Bytes == 64 {
				var s []float64
				for i := 0; i < 100; i++ {
					if i%3 == 0 {
						s = append(s, 3+0.001*float64(i))
					} else {
						s = append(s, 1+0.001*float64(i))
					}
				}
				x.Ranks, x.RankMeanUS, x.SamplesUS = []int{0, 1}, []float64{1.7, 1.7}, [][]float64{s, s}
			}
		}), ExplainOptions{}, "info:bimodal", ""},
		{"cliff at 64 KiB", mkRun("imb", "Sendrecv", 2, result.IntraNode, pingpong(1, 5000, func(s int64) float64 {
			if s >= 64<<10 {
				return 3
			}
			return 1
		}), nil), ExplainOptions{}, "warning:cliff", ""},
		{"spike at 4 KiB is noise", mkRun("imb", "Sendrecv", 2, result.IntraNode, pingpong(1, 5000, func(s int64) float64 {
			if s == 4<<10 {
				return 6
			}
			return 1
		}), nil), ExplainOptions{}, "info:variability", "cliff"},
		{"far below the link, plateau", mkRun("imb", "PingPong", 2, result.InterNode, pingpong(2, 3000, one), nil),
			link100, "warning:plateau", ""},
		{"near the link", mkRun("imb", "PingPong", 2, result.InterNode, pingpong(1.2, 12200, one), nil),
			link100, "info:link-efficiency", "plateau"},
		{"fast latency across nodes is suspicious", mkRun("imb", "PingPong", 2, result.InterNode, pingpong(0.3, 12000, one), nil),
			ExplainOptions{}, "warning:fabric", ""},
		{"slow latency within a node", mkRun("osu", "latency", 2, result.IntraNode, pingpong(25, 1000, one), nil),
			ExplainOptions{}, "warning:fabric", ""},
		{"somewhat slow shared memory", mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(1.8, 8000, one), nil),
			ExplainOptions{}, "info:fabric", ""},
		{"straggler", mkRun("imb", "Allreduce", 4, result.IntraNode, pingpong(3, 4000, one), ranks(4, 2)),
			ExplainOptions{}, "warning:straggler", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := Explain(c.run, c.opt)
			got := " " + kinds(fs) + " "
			if !strings.Contains(got, " "+c.want+" ") {
				t.Errorf("findings %s, want %s", got, c.want)
			}
			if c.none != "" && strings.Contains(got, ":"+c.none+" ") {
				t.Errorf("findings %s, want no %s", got, c.none)
			}
			if c.name == "clean intra-node PingPong" && strings.Contains(got, "warning") {
				t.Errorf("clean run warns: %s", got)
			}
			for _, f := range fs {
				if f.Summary == "" || f.Cause == "" || len(f.Numbers) == 0 {
					t.Errorf("finding without words or numbers: %+v", f)
				}
			}
		})
	}
	// the collective model: Allreduce at np 8 taking 60 PingPong times,
	// some 20× its model (about three messages' time)
	pp := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(1, 10000, one), nil)
	ar := mkRun("imb", "Allreduce", 8, result.IntraNode, pingpong(1, 10000, func(int64) float64 { return 60 }), nil)
	pp.Results = append(pp.Results, ar.Results...)
	f := find(Explain(pp, ExplainOptions{}), KindCollective)
	if f == nil || f.Series.Benchmark != "Allreduce" || len(f.Sizes) < 10 {
		t.Errorf("collective model: %+v", f)
	}
}

// TestFabricReference: the fabric finding quotes the published figures
// of the classes the latency fits; 11 µs between nodes fits EFA and TCP
// alike, and a run that names EFA (FI_PROVIDER=efa, or efa devices) is
// said to fit the transport it names; nothing is a WARNING.
func TestFabricReference(t *testing.T) {
	vmi := load(t, "testdata/vmi_infiniband_latency_np2.txt")[0]
	f := find(Explain(vmi, ExplainOptions{}), KindFabric)
	if f == nil || !strings.Contains(strings.Join(f.Numbers, "\n"), "published: InfiniHost (MPICH-VMI, 2005) 1.74 µs") {
		t.Errorf("VMI fabric: %+v", f)
	}
	efa := func(env map[string]string, links []result.Link) *Finding {
		r := mkRun("osu", "latency", 2, result.InterNode, pingpong(11, 5800, one), nil)
		r.Run.Env = env
		r.Run.Ranks = []result.Rank{{Links: links}}
		return find(Explain(r, ExplainOptions{}), KindFabric)
	}
	far := mkRun("imb", "PingPong", 2, result.InterNode, pingpong(500, 100, one), nil)
	if f := find(Explain(far, ExplainOptions{}), KindFabric); f == nil || f.Severity != Warning || !strings.Contains(f.Summary, "slower than any fabric") {
		t.Errorf("500 µs between nodes: %+v", f)
	}
	for _, c := range []struct {
		name, cause string
		f           *Finding
	}{
		{"FI_PROVIDER=efa", "the run names its transport, AWS EFA (SRD)", efa(map[string]string{"FI_PROVIDER": "efa"}, nil)},
		{"efa device", "the run names its transport, AWS EFA (SRD)", efa(nil, []result.Link{{Name: "efa_0", Kind: "infiniband", State: "up", Gbps: 100}})},
		{"no provider", "latency alone cannot tell these apart", efa(nil, nil)},
	} {
		if c.f == nil || c.f.Severity != Info || !strings.Contains(c.f.Summary, "11.0 µs fits AWS EFA (SRD) or kernel TCP/IP") ||
			!strings.Contains(c.f.Cause, c.cause) || !strings.Contains(strings.Join(c.f.Numbers, " "), "published:") {
			t.Errorf("%s: %+v", c.name, c.f)
		}
	}
}

// TestFabricGPU: 2.5 µs between GPU buffers on one node is shared memory
// (device copies), the same from host memory would be network-like.
func TestFabricGPU(t *testing.T) {
	run := func(opts any) *Finding {
		r := mkRun("osu", "latency", 2, result.IntraNode, pingpong(2.5, 8000, one), nil)
		r.Run.Options = opts
		return find(Explain(r, ExplainOptions{}), KindFabric)
	}
	if f := run(map[string]any{"test": "latency", "options": map[string]any{"device": "cuda"}}); f == nil || f.Severity != Info || !strings.Contains(f.Summary, "shared memory") || !strings.Contains(f.Numbers[0], "GPU buffers") {
		t.Errorf("GPU buffers: %+v", f)
	}
	if f := run(nil); f == nil || !strings.Contains(f.Summary, "slow shared memory") {
		t.Errorf("host buffers: %+v", f)
	}
}

// TestThresholds: the rules judge by ExplainOptions.Thresholds: a spread
// of 4.5× warns at the default 3× and not at 5×, and the summary says the
// threshold in force; the zero options are the defaults.
func TestThresholds(t *testing.T) {
	run := mkRun("imb", "Allreduce", 4, result.IntraNode, []pt{{bytes: 1024, tmin: 2, tmax: 9, tavg: 5}}, nil)
	def := find(Explain(run, ExplainOptions{}), KindVariability)
	same := find(Explain(run, ExplainOptions{Thresholds: &DefaultThresholds}), KindVariability)
	if def == nil || same == nil || def.Summary != same.Summary || !strings.Contains(def.Summary, "more than 3×") {
		t.Fatalf("defaults: %+v %+v", def, same)
	}
	th := DefaultThresholds
	th.SpreadRatio = 5
	if f := find(Explain(run, ExplainOptions{Thresholds: &th}), KindVariability); f != nil {
		t.Errorf("a 4.5x spread against a 5x threshold: %+v", f)
	}
	th.SpreadRatio = 2
	if f := find(Explain(run, ExplainOptions{Thresholds: &th}), KindVariability); f == nil || !strings.Contains(f.Summary, "more than 2×") {
		t.Errorf("a 4.5x spread against a 2x threshold: %+v", f)
	}
}

// TestExplainHistory: held against five earlier runs of its system, a
// run 1.9× slower from 1 KiB on is a WARNING naming the benchmark, the
// sizes and the factor; as fast as its history, nothing; with too few
// earlier runs, nothing either.
func TestExplainHistory(t *testing.T) {
	past := noisy(5, 3, "PingPong", func(j float64) []pt { return pingpong(1, 5000, func(int64) float64 { return j }) })
	for _, p := range past {
		p.Run.Labels = map[string]string{"system": "hpc4"}
	}
	slow := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(1, 5000, func(s int64) float64 {
		if s >= 1024 {
			return 1.9
		}
		return 1
	}), nil)
	f := find(Explain(slow, ExplainOptions{History: past}), KindHistory)
	if f == nil || f.Severity != Warning || f.Series.Benchmark != "PingPong" || f.Sizes[0] != 1024 ||
		!strings.Contains(f.Summary, "1.9× slower than its median over the last 5 runs") || !strings.Contains(f.Numbers[0], "system=hpc4") {
		t.Errorf("1.9× slower: %+v", f)
	}
	same := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(1, 5000, one), nil)
	if f := find(Explain(same, ExplainOptions{History: past}), KindHistory); f != nil {
		t.Errorf("as fast as its history: %+v", f)
	}
	if f := find(Explain(slow, ExplainOptions{History: past[:2]}), KindHistory); f != nil {
		t.Errorf("two earlier runs: %+v", f)
	}
}

// TestFabricEvidence: the fabric finding states the evidence first and
// names every class the latency fits; it warns only where latency and
// evidence cannot both be true. The cases are the field's: EFA at 15 µs
// between two nodes of an srun -N 2, EDR at 0.84 µs in a log that names
// no hosts, 0.98 µs between two hosts the launch line names, shared
// memory at 3 µs on a small ARM board, a CXI run at TCP's latency.
func TestFabricEvidence(t *testing.T) {
	logged := func(lat float64, loc string, meta map[string]string) *result.Bundle {
		r := mkRun("osu", "latency", 2, loc, pingpong(lat, 10000, one), nil)
		r.Run.Source = &result.Source{Format: "osu", Meta: meta}
		return r
	}
	twoNodes := map[string]string{"nodes": "2", "nodes_from": "srun -N 2"}
	for _, c := range []struct {
		name     string
		run      *result.Bundle
		severity string
		says     []string
		never    string
	}{
		{"EFA at 15 µs, srun -N 2", logged(15, result.InterNode, twoNodes), Info,
			[]string{"fits AWS EFA (SRD) or kernel TCP/IP", "the ranks are on different nodes (the launch line (srun -N 2))"}, "not using"},
		{"EFA named", logged(15, result.InterNode, map[string]string{"fabric": "efa", "fabric_from": "FI_PROVIDER=efa"}), Info,
			[]string{"fits AWS EFA (SRD)", "the transport the run names: AWS EFA (SRD), from the log: \"FI_PROVIDER=efa\"; the latency fits it"}, "not using"},
		{"0.84 µs, no hosts named", logged(0.84, "", nil), Info,
			[]string{"fits shared memory (one node) or InfiniBand", "where the ranks ran: the run does not say"}, "share a node"},
		{"0.98 µs between two named hosts", logged(0.98, result.InterNode, map[string]string{"nodes": "2", "nodes_from": "-host cn1,cn2"}), Info,
			[]string{"fits InfiniBand, RoCE, Omni-Path or Slingshot-11 (CXI); the ranks are on different nodes"}, "share a node"},
		{"3 µs, no hosts named", logged(3, "", nil), Info, []string{"fits shared memory (one node) or InfiniBand"}, ""},
		{"3 µs on one node (srun -N1)", logged(3, result.IntraNode, map[string]string{"nodes": "1", "nodes_from": "srun -N1"}), Info,
			[]string{"on one node: slow shared memory", "ARM boards"}, ""},
		{"CXI named at 15 µs", logged(15, result.InterNode, map[string]string{"fabric": "cxi", "fabric_from": "FI_PROVIDER=cxi"}), Info,
			[]string{"HPE Slingshot-11 (CXI), from the log", "outside that class's published range"}, "not using"},
		{"6 µs fits no class", logged(6, "", nil), Info, []string{"fits no class's published range"}, ""},
		{"0.3 µs between two named hosts", logged(0.3, result.InterNode, twoNodes), Warning,
			[]string{"faster than any network", "from the launch line (srun -N 2)"}, ""},
		// Fujitsu's Tofu-D puts 8 bytes in 0.49 µs: 0.52 µs between two
		// nodes of a log that names it is Tofu-D, not "faster than any
		// network"
		{"Tofu-D named at 0.52 µs, two nodes", logged(0.52, result.InterNode, map[string]string{"nodes": "2", "nodes_from": "srun -N 2",
			"fabric": "tofu", "fabric_from": "libtofucom.so"}), Info,
			[]string{"fits Fujitsu Tofu interconnect D (Tofu-D)", "The Tofu Interconnect D, IEEE Cluster 2018", "the latency fits it"}, "faster than any network"},
		{"0.3 µs, no hosts named: one node", logged(0.3, "", nil), Info,
			[]string{"fits shared memory (one node); the ranks are on one node (the latency, 0.30 µs, below any network's)"}, ""},
		{"12 µs on one node", logged(12, result.IntraNode, map[string]string{"nodes": "1", "nodes_from": "srun -N1"}), Warning,
			[]string{"network-like"}, ""},
	} {
		f := find(Explain(c.run, ExplainOptions{}), KindFabric)
		if f == nil {
			t.Errorf("%s: no fabric finding", c.name)
			continue
		}
		all := f.Summary + "\n" + strings.Join(f.Numbers, "\n") + "\n" + f.Cause
		if f.Severity != c.severity {
			t.Errorf("%s: %s, want %s: %s", c.name, f.Severity, c.severity, all)
		}
		for _, w := range c.says {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, all)
			}
		}
		if c.never != "" && strings.Contains(all, c.never) {
			t.Errorf("%s: says %q:\n%s", c.name, c.never, all)
		}
	}
	// 0.84 µs in a log that names no hosts is not set within a node: a
	// link rate still gives its efficiency
	f := find(Explain(logged(0.84, "", nil), ExplainOptions{Link: Link{Gbps: 100, Source: "-link"}}), KindEfficiency)
	if f == nil {
		t.Errorf("0.84 µs with -link 100: no link efficiency")
	}
}

// TestLineText: a fitted line with a negative start-up or a time falling
// with size is never printed as a latency or a bandwidth.
func TestLineText(t *testing.T) {
	for _, c := range []struct {
		l    stats.Line
		want string
	}{
		{stats.Line{Alpha: 1.62, Beta: 1 / 1746.0}, "t ≈ 1.62 µs + size / 1746 MB/s"},
		{stats.Line{Alpha: -0.4, Beta: 1 / 2000.0}, "t ≈ size / 2000 MB/s, less 0.40 µs (no start-up cost: a line fitted across a bend)"},
		{stats.Line{Alpha: 3, Beta: 0}, "t ≈ 3.00 µs + no growth with size"},
		{stats.Line{Alpha: 30, Beta: -1e-4}, "t ≈ 30.0 µs + a time that falls with size"},
	} {
		if got := lineText(c.l); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

// TestSplitSizes: IMB's Reduce_scatter at 4 B over 4 ranks gives three of
// them nothing; that row's time (here 8 µs against 30 µs from 16 B on) is
// no step to read.
func TestSplitSizes(t *testing.T) {
	pts := []pt{{bytes: 4, tavg: 8}, {bytes: 8, tavg: 8.2}, {bytes: 16, tavg: 30}, {bytes: 32, tavg: 30.5}, {bytes: 64, tavg: 31}, {bytes: 128, tavg: 31.5}}
	run := mkRun("imb", "Reduce_scatter", 4, result.InterNode, pts, nil)
	ss := collect(run)
	if len(ss) != 1 || len(ss[0].rows) != 4 || ss[0].rows[0].bytes != 16 {
		t.Fatalf("series %+v", ss[0].rows)
	}
	for _, f := range Explain(run, ExplainOptions{}) {
		if f.Kind == KindCliff || f.Kind == KindVariability {
			t.Errorf("a finding from the rows with no element per rank: %+v", f)
		}
	}
	ar := mkRun("imb", "Allreduce", 4, result.InterNode, pts, nil)
	if len(collect(ar)[0].rows) != 6 {
		t.Errorf("Allreduce lost rows")
	}
}

// TestCollectiveFieldCases: collectives far above the pair latency, as the
// field's logs show them. A 36 ms Barrier at 16 ranks in a log with no
// ping-pong at all (slower than any fabric could make it); an Allreduce of
// 700-990 µs at small sizes on a run whose osu_latency (1.1 µs) is another
// run of the same log; osu_multi_lat at 790 µs against that pair latency.
// And the reverse: Reduce and Allreduce equally slow while Bcast keeps to
// its model is the reductions' arithmetic (INFO, not a WARNING).
func TestCollectiveFieldCases(t *testing.T) {
	logged := func(r *result.Bundle, line int) *result.Bundle {
		r.Run.Source = &result.Source{Format: "osu", Hash: "same-file", Line: line}
		return r
	}
	flat := func(v float64) func(int64) float64 { return func(int64) float64 { return v } }
	barrier := logged(mkRun("osu", "barrier", 16, "", []pt{{bytes: 0, tavg: 36000, tmax: 36000, tmin: 35000}}, nil), 1)
	f := find(Explain(barrier, ExplainOptions{}), KindCollective)
	if f == nil || f.Severity != Warning || !strings.Contains(strings.Join(f.Numbers, " "), "no pair latency in the log: model with 250.0 µs a message") {
		t.Errorf("36 ms barrier, no pair latency: %+v", f)
	}
	if f := find(Explain(logged(mkRun("osu", "barrier", 16, "", []pt{{bytes: 0, tavg: 900, tmax: 900}}, nil), 1), ExplainOptions{}), KindCollective); f != nil {
		t.Errorf("900 µs barrier with nothing to model it from: %+v", f)
	}
	lat := logged(mkRun("osu", "latency", 2, "", pingpong(1.1, 12000, one), nil), 1)
	small := func(v float64) []pt {
		var out []pt
		for b := int64(4); b <= 64; b *= 2 {
			out = append(out, pt{bytes: b, tavg: v, tmax: v * 1.1, tmin: v * 0.9})
		}
		return out
	}
	ar := logged(mkRun("osu", "allreduce", 16, "", small(850), nil), 40)
	ml := logged(mkRun("osu", "multi_lat", 16, "", small(790), nil), 80)
	all := []*result.Bundle{lat, ar, ml}
	for _, r := range []*result.Bundle{ar, ml} {
		f := find(Explain(r, ExplainOptions{Peers: NewPeers(all)}), KindCollective)
		if f == nil || f.Severity != Warning || !strings.Contains(strings.Join(f.Numbers, " "), "osu_latency of another run in the same log (line 1;") {
			t.Errorf("%s with the log's osu_latency: %+v", r.Results[0].Benchmark, f)
		}
		if f := find(Explain(r, ExplainOptions{}), KindCollective); f != nil {
			t.Errorf("%s alone (nothing to model it from but the slowest fabric): %+v", r.Results[0].Benchmark, f)
		}
	}
	pp := mkRun("imb", "PingPong", 2, result.InterNode, pingpong(1, 10000, one), nil)
	for _, b := range []string{"Reduce", "Allreduce"} {
		pp.Results = append(pp.Results, mkRun("imb", b, 8, result.InterNode, pingpong(1, 10000, flat(60)), nil).Results...)
	}
	pp.Results = append(pp.Results, mkRun("imb", "Bcast", 8, result.InterNode, pingpong(1, 10000, flat(2)), nil).Results...)
	fs := Explain(pp, ExplainOptions{})
	for _, f := range fs {
		if f.Kind == KindCollective && (f.Severity != Info || !strings.Contains(f.Cause, "arithmetic")) {
			t.Errorf("reductions alike: %+v", f)
		}
	}
	if find(fs, KindCollective) == nil {
		t.Errorf("reductions alike: no finding at all")
	}
}

// TestBandwidthFall: IMB Uniband over process counts, as a field log has
// it: with 4 to 32 processes the aggregate falls 52-62% from its peak at
// 1 MiB to 4 MiB (one WARNING for the benchmark); from np 64 on, pairs
// cross nodes and the aggregate stands far below np 32's (INFO). One pair
// that may share a node sliding to the largest size is the caches (INFO);
// one pair between nodes, a WARNING. No cliff besides.
func TestBandwidthFall(t *testing.T) {
	uni := func(np int, peak, at2M, at4M float64) []*result.Result {
		var pts []pt
		for b := int64(1024); b <= 4<<20; b *= 2 {
			v := peak * float64(b) / float64(b+32<<10)
			switch b {
			case 2 << 20:
				v = at2M
			case 4 << 20:
				v = at4M
			}
			pts = append(pts, pt{bytes: b, bw: v})
		}
		return mkRun("imb", "Uniband", np, "", pts, nil).Results
	}
	run := mkRun("imb", "Uniband", 2, "", nil, nil)
	for _, c := range []struct {
		np             int
		peak, at2, at4 float64
	}{{2, 5600, 5300, 5100}, {4, 21000, 19000, 9900}, {8, 43000, 38000, 19000}, {16, 77000, 69000, 35000}, {32, 144000, 93000, 55000},
		{64, 49000, 49000, 49000}, {112, 12300, 12300, 12300}} {
		run.Results = append(run.Results, uni(c.np, c.peak, c.at2, c.at4)...)
	}
	fs := Explain(run, ExplainOptions{})
	var falls []Finding
	for _, f := range fs {
		if f.Kind == KindFall {
			falls = append(falls, f)
		}
		if f.Kind == KindCliff && f.Severity == Warning {
			t.Errorf("a cliff besides the fall: %+v", f)
		}
	}
	if len(falls) != 1 || falls[0].Severity != Warning || !strings.Contains(falls[0].Summary, "at np 4, 8, 16, 32, several pairs at once") {
		t.Errorf("falls: %+v", falls)
	}
	if f := find(fs, KindScaling); f == nil || !strings.Contains(f.Summary, "at np 32") || len(f.Numbers) != 3 {
		t.Errorf("scaling: %+v", f)
	}
	pair := func(loc string) *Finding {
		r := mkRun("imb", "Uniband", 2, loc, nil, nil)
		r.Results = uni(2, 10000, 7000, 5000)
		for _, x := range r.Results {
			x.Locality = loc
		}
		return find(Explain(r, ExplainOptions{}), KindFall)
	}
	if f := pair(""); f == nil || f.Severity != Info || !strings.Contains(f.Cause, "caches") {
		t.Errorf("one pair, where unknown: %+v", f)
	}
	if f := pair(result.InterNode); f == nil || f.Severity != Warning {
		t.Errorf("one pair between nodes: %+v", f)
	}
}

// TestOneSidedModes: IMB-EXT's two modes are two series (never one fit
// over both); aggregate puts ×13 slower from 4 KiB on and flat to 128
// KiB, slower than non-aggregate ones, as a field log has them: a
// one-sided WARNING, and the step a cliff although all four one-sided
// benchmarks share it (no protocol switch steps ×13 and stays flat).
func TestOneSidedModes(t *testing.T) {
	run := mkRun("imb-ext", "Unidir_Put", 2, result.IntraNode, nil, nil)
	for _, b := range []string{"Unidir_Put", "Unidir_Get", "Bidir_Put", "Bidir_Get"} {
		for _, mode := range []string{result.ModeAggregate, result.ModeNonAggregate} {
			for sz := int64(8); sz <= 1<<20; sz *= 2 {
				v := 2 + float64(sz)/2500
				switch {
				case mode == result.ModeAggregate && sz >= 4096 && sz <= 128<<10:
					v = 50 + float64(sz)/20000
				case mode == result.ModeNonAggregate:
					v = 4 + float64(sz)/2500
				}
				run.Results = append(run.Results, &result.Result{Suite: "imb-ext", Benchmark: b, Mode: mode, NP: 2, Bytes: sz,
					Status: result.StatusOK, TMinUS: v, TMaxUS: v, TAvgUS: v, Locality: result.IntraNode})
			}
		}
	}
	ss := collect(run)
	if len(ss) != 8 || !strings.Contains(ss[0].Benchmark, " (") {
		t.Fatalf("%d series, first %q: want the modes apart", len(ss), ss[0].Benchmark)
	}
	fs := Explain(run, ExplainOptions{})
	one, cliffs := 0, 0
	for _, f := range fs {
		switch {
		case f.Kind == KindOneSided && f.Severity == Warning && strings.Contains(f.Summary, "aggregate mode is slower than non-aggregate"):
			one++
		case f.Kind == KindCliff && f.Severity == Warning && strings.Contains(f.Summary, "(aggregate)"):
			cliffs++
		case f.Kind == KindSwitch && f.Series.Benchmark == "" && f.Sizes[1] == 4096:
			t.Errorf("the ×13 step called the MPI's switch: %+v", f)
		}
	}
	if one != 4 || cliffs != 4 {
		t.Errorf("%d one-sided, %d cliff WARNINGs, want 4 and 4:\n%s", one, cliffs, kinds(fs))
	}
}

// TestVariabilityStructural: with more than two ranks and no word of where
// they ran, a spread between ranks is their places (INFO); within one node
// it is interference (WARNING); a 0-byte row, a call that moves nothing,
// is not read.
func TestVariabilityStructural(t *testing.T) {
	pts := []pt{{bytes: 0, tmin: 0.1, tmax: 2, tavg: 1}, {bytes: 1024, tmin: 2, tmax: 9, tavg: 5}, {bytes: 2048, tmin: 3, tmax: 12, tavg: 6}}
	for _, c := range []struct {
		loc, sev string
	}{{"", Info}, {result.InterNode, Info}, {result.IntraNode, Warning}} {
		f := find(Explain(mkRun("imb", "Sendrecv", 64, c.loc, pts, nil), ExplainOptions{}), KindVariability)
		if f == nil || f.Severity != c.sev || f.Sizes[0] != 1024 {
			t.Errorf("np 64, %q: %+v, want %s from 1 KiB", c.loc, f, c.sev)
		}
	}
}

// TestReductionArithmetic: on a slow core Reduce_scatter, Reduce and
// Allreduce of 512 KiB take 1.3-1.5 ms against a 264 µs PingPong; only
// Reduce_scatter's model is below a tenth of it, yet the others as slow
// say the arithmetic costs: INFO.
func TestReductionArithmetic(t *testing.T) {
	pp := mkRun("imb", "PingPong", 2, result.IntraNode, pingpong(3, 2000, one), nil)
	for b, k := range map[string]float64{"Reduce_scatter": 2.6, "Reduce": 2.4, "Allreduce": 2.9} {
		pp.Results = append(pp.Results, mkRun("imb", b, 2, result.IntraNode, pingpong(3, 2000, func(s int64) float64 {
			if s >= 256<<10 {
				return k * 2.2
			}
			return 1
		}), nil).Results...)
	}
	var saw bool
	for _, f := range Explain(pp, ExplainOptions{}) {
		if f.Kind == KindCollective {
			saw = true
			if f.Severity != Info || !strings.Contains(strings.Join(f.Numbers, " "), "other reductions take about as long") {
				t.Errorf("%+v", f)
			}
		}
	}
	if !saw {
		t.Errorf("no collective-model finding at all")
	}
}

// TestGPUStaging: osu_latency -d cuda D D as a field log has it, 1.7 µs
// at 0 B and 17 µs from 1 B: every data message is staged through the
// host (a gpu WARNING) and the fabric is read off the empty message; the
// same numbers between host buffers say nothing of GPUs.
func TestGPUStaging(t *testing.T) {
	run := func(note string) *result.Bundle {
		pts := append([]pt{{bytes: 0, tavg: 1.74, tmax: 1.74, tmin: 1.74}}, pingpong(17, 9000, one)...)
		r := mkRun("osu", "latency", 2, "", pts, nil)
		r.Run.Source = &result.Source{Format: "osu", Meta: map[string]string{"note": note}}
		return r
	}
	fs := Explain(run("Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)"), ExplainOptions{})
	if f := find(fs, KindGPU); f == nil || f.Severity != Warning || !strings.Contains(f.Summary, "costs 10× an empty one") {
		t.Errorf("D D: %+v", f)
	}
	if f := find(fs, KindFabric); f == nil || !strings.Contains(f.Summary, "1.74 µs fits") || !strings.Contains(strings.Join(f.Numbers, " "), "is the staging's") {
		t.Errorf("D D fabric: %+v", f)
	}
	hh := Explain(run("Send Buffer on HOST (H) and Receive Buffer on HOST (H)"), ExplainOptions{})
	if f := find(hh, KindGPU); f != nil {
		t.Errorf("H H: %+v", f)
	}
}

// TestPeersSharedStep: an OSU log holds one test a run; the step at 4 KiB
// that gather, gatherv and allgatherv all take (an eager limit) is a cliff
// of each read alone, the MPI's switch read with the log's other runs.
func TestPeersSharedStep(t *testing.T) {
	var all []*result.Bundle
	for i, b := range []string{"gather", "gatherv", "allgatherv"} {
		r := mkRun("osu", b, 8, result.IntraNode, pingpong(1, 5000, func(s int64) float64 {
			if s >= 4096 {
				return 3
			}
			return 1
		}), nil)
		r.Run.Source = &result.Source{Format: "osu", Hash: "log", Line: 10 * i}
		all = append(all, r)
	}
	for _, r := range all {
		if f := find(Explain(r, ExplainOptions{}), KindCliff); f == nil || f.Severity != Warning {
			t.Errorf("%s alone: %+v", r.Results[0].Benchmark, f)
		}
		fs := Explain(r, ExplainOptions{Peers: NewPeers(all)})
		for _, f := range fs {
			if f.Kind == KindCliff && f.Severity == Warning {
				t.Errorf("%s with its log: %+v", r.Results[0].Benchmark, f)
			}
		}
		if f := find(fs, KindSwitch); f == nil || !strings.Contains(f.Numbers[0], "a step 3 benchmarks share") {
			t.Errorf("%s with its log: switch %+v", r.Results[0].Benchmark, f)
		}
	}
}

// TestInversions: 64 KiB slower than 128 KiB over TCP (313 against 279
// µs, a field log) is said (INFO); a few µs between small sizes is not,
// nor is a step up.
func TestInversions(t *testing.T) {
	pts := pingpong(32, 400, func(s int64) float64 {
		if s == 64<<10 {
			return 2.5 // 490 µs, 128 KiB 360 µs
		}
		return 1
	})
	var f *Finding
	for _, x := range Explain(mkRun("osu", "latency", 2, result.InterNode, pts, nil), ExplainOptions{}) {
		if strings.Contains(x.Summary, "time falls") {
			f = &x
		}
	}
	if f == nil || f.Severity != Info || f.Kind != KindVariability || !strings.Contains(f.Summary, "time falls as messages grow at 64 KiB") {
		t.Errorf("TCP inversion: %+v", f)
	}
	// IMB-EXT's non-aggregate puts and accumulates over TCP: 800 µs up to
	// 1 KiB, 292 µs at 2 KiB, in both: systematic (a WARNING); in one
	// benchmark alone, INFO
	slow := func(b string) []*result.Result {
		var ps []pt
		for sz := int64(4); sz <= 64<<10; sz *= 2 {
			v := 800.0
			if sz >= 2048 {
				v = 292 + float64(sz)/100
			}
			ps = append(ps, pt{bytes: sz, tavg: v, tmax: v, tmin: v})
		}
		return mkRun("imb-ext", b, 2, result.InterNode, ps, nil).Results
	}
	two := mkRun("imb-ext", "Unidir_Put", 2, result.InterNode, nil, nil)
	two.Results = append(slow("Unidir_Put"), slow("Accumulate")...)
	var sev []string
	for _, x := range Explain(two, ExplainOptions{}) {
		if x.Kind == KindVariability && strings.Contains(x.Summary, "slower than larger ones") {
			sev = append(sev, x.Severity)
		}
	}
	if fmt.Sprint(sev) != "[warning warning]" {
		t.Errorf("systematic inversions: %v", sev)
	}
	one := mkRun("imb-ext", "Unidir_Put", 2, result.InterNode, nil, nil)
	one.Results = slow("Unidir_Put")
	for _, x := range Explain(one, ExplainOptions{}) {
		if x.Kind == KindVariability && x.Severity == Warning {
			t.Errorf("one benchmark's inversion: %+v", x)
		}
	}
	small := []pt{{bytes: 64, tavg: 4}, {bytes: 128, tavg: 2}, {bytes: 256, tavg: 2.1}, {bytes: 512, tavg: 2.3}}
	for _, f := range Explain(mkRun("osu", "allgather", 8, result.IntraNode, small, nil), ExplainOptions{}) {
		if strings.Contains(f.Summary, "time falls") {
			t.Errorf("4 against 2 µs: %+v", f)
		}
	}
}

// TestFieldModels: the collective model where the log's ping-pong cannot
// carry it. IMB's PingPong between ranks 0 and 1 of one node (0.47 µs)
// against an Alltoall at 32 ranks over nodes: held against the slowest
// pair instead (no WARNING for 30 µs at 1 KiB); a 900 µs allreduce of an
// unknown process count against a 1.56 µs pair: modelled at 2^20 ranks,
// still far too slow (a WARNING). A single line fitted across bends is no
// regime; a benchmark at two process counts is read for scaling.
func TestFieldModels(t *testing.T) {
	pp := mkRun("imb", "PingPong", 2, "", pingpong(0.47, 8000, one), nil)
	pp.Results = append(pp.Results, mkRun("imb", "Alltoall", 32, "", pingpong(30, 800, one), nil).Results...)
	for _, f := range Explain(pp, ExplainOptions{}) {
		if f.Kind == KindCollective && f.Severity == Warning {
			t.Errorf("Alltoall np 32 against a shared-memory PingPong: %+v", f)
		}
	}
	lat := mkRun("osu", "latency", 2, "", pingpong(1.56, 12000, one), nil)
	lat.Run.Source = &result.Source{Format: "osu", Hash: "h", Line: 1}
	var pts []pt
	for b := int64(4); b <= 1024; b *= 2 {
		pts = append(pts, pt{bytes: b, tavg: 900, tmax: 950, tmin: 850})
	}
	ar := mkRun("osu", "allreduce", 0, "", pts, nil)
	ar.Run.Source = &result.Source{Format: "osu", Hash: "h", Line: 40}
	f := find(Explain(ar, ExplainOptions{Peers: NewPeers([]*result.Bundle{lat, ar})}), KindCollective)
	if f == nil || f.Severity != Warning || !strings.Contains(strings.Join(f.Numbers, " "), "modelled at 1048576 ranks") {
		t.Errorf("allreduce of unknown np: %+v", f)
	}
	bent := mkRun("osu", "latency", 2, result.InterNode, pingpong(2, 5000, func(s int64) float64 {
		return 1 + 0.4*float64(s%3) // sizes that follow no line
	}), nil)
	for _, f := range Explain(bent, ExplainOptions{}) {
		if f.Kind == KindRegimes && len(f.Numbers) == 1 {
			t.Errorf("one regime across bends: %+v", f)
		}
	}
	// one size 1.45× off its line: the rms passes (8%), the size does not
	oneOff := mkRun("osu", "latency", 2, result.InterNode, pingpong(2, 5000, func(s int64) float64 {
		if s == 16 {
			return 1.45
		}
		return 1
	}), nil)
	for _, f := range Explain(oneOff, ExplainOptions{}) {
		if f.Kind == KindRegimes && len(f.Numbers) == 1 {
			t.Errorf("one regime that misses a size by 45%%: %+v", f)
		}
	}
	two := mkRun("imb", "Uniband", 2, "", []pt{{bytes: 1 << 20, bw: 20000}, {bytes: 2 << 20, bw: 21000}}, nil)
	two.Results = append(two.Results, mkRun("imb", "Uniband", 4, "", []pt{{bytes: 1 << 20, bw: 3000}, {bytes: 2 << 20, bw: 3100}}, nil).Results...)
	if f := find(Explain(two, ExplainOptions{}), KindScaling); f == nil {
		t.Errorf("Uniband np 2 and 4: no scaling finding")
	}
}

// TestCacheSlide: a PingPong on one node whose bandwidth slides from
// 13.7 GB/s at 2 MiB to 5.4 GB/s at 256 MiB with no step (a field log,
// IMB with -msglog to 28): the caches, one INFO; between nodes the same
// slide is a WARNING.
func TestCacheSlide(t *testing.T) {
	bw := map[int64]float64{2 << 20: 13658, 4 << 20: 10880, 8 << 20: 7667, 16 << 20: 6917, 32 << 20: 5689, 64 << 20: 5674, 128 << 20: 5561, 256 << 20: 5355}
	slide := func(loc string) *result.Bundle {
		var pts []pt
		for b := int64(1024); b <= 256<<20; b *= 2 {
			v, ok := bw[b]
			if !ok {
				v = 13000 * float64(b) / float64(b+16<<10)
			}
			tm := float64(b) / v
			pts = append(pts, pt{bytes: b, tavg: tm, tmax: tm, tmin: tm})
		}
		return mkRun("imb", "PingPong", 2, loc, pts, nil)
	}
	var f *Finding
	for _, x := range Explain(slide(result.IntraNode), ExplainOptions{}) {
		if x.Kind == KindCliff || x.Kind == KindFall {
			f = &x
		}
	}
	if f == nil || f.Kind != KindCliff || f.Severity != Info || !strings.Contains(f.Summary, "on shared memory: the caches") {
		t.Errorf("one node: %+v", f)
	}
	if f := find(Explain(slide(result.InterNode), ExplainOptions{}), KindFall); f == nil || f.Severity != Warning {
		t.Errorf("between nodes: %+v", f)
	}
}

// TestSmallDip: osu_mbw_mr with 56 pairs dips 39% at 64 B and recovers
// by 256 B (a field log): an outlying size (INFO); a small size whose
// bandwidth never comes back is no cliff either (small messages' bandwidth
// is their rate's).
func TestSmallDip(t *testing.T) {
	bw := []float64{63, 130, 234, 562, 1051, 2174, 1324, 1742, 4951, 7371, 9381, 11346}
	var pts []pt
	for i, v := range bw {
		pts = append(pts, pt{bytes: int64(1) << i, bw: v})
	}
	f := find(Explain(mkRun("osu", "mbw_mr", 112, result.InterNode, pts, nil), ExplainOptions{}), KindVariability)
	if f == nil || f.Severity != Info || !strings.Contains(f.Summary, "outlying sizes 64 B") {
		t.Errorf("the 64 B dip: %+v", f)
	}
}

// TestCollectiveStepNoise: an allreduce's own step (no other benchmark
// shares it) is its algorithm's switch when it holds — 748, 917, 1076 µs
// at 4, 8, 16 KiB at 3072 ranks — not when the next sizes undo it (263,
// 479, 408 µs at 1, 2, 4 KiB), nor when one repetition of five takes it.
func TestCollectiveStepNoise(t *testing.T) {
	times := map[int64]float64{512: 250, 1024: 263, 2048: 479, 4096: 408, 8192: 917, 16384: 1076, 32768: 1500, 65536: 2600, 131072: 4800, 262144: 9000, 524288: 17000}
	var pts []pt
	for b := int64(512); b <= 512<<10; b *= 2 {
		pts = append(pts, pt{bytes: b, tavg: times[b], tmax: times[b], tmin: times[b]})
	}
	fs := Explain(mkRun("osu", "allreduce", 3072, result.InterNode, pts, nil), ExplainOptions{})
	var at []int64
	for _, f := range fs {
		if f.Kind == KindSwitch && f.Series.Benchmark == "" {
			at = append(at, f.Sizes[1])
		}
	}
	if fmt.Sprint(at) != "[8192]" {
		t.Errorf("switches at %v, want [8192] only:\n%s", at, kinds(fs))
	}
	// five repetitions: the 8 KiB step in the first only
	var all []*result.Bundle
	for i := range 5 {
		ps := append([]pt{}, pts...)
		for k := range ps {
			if i > 0 && ps[k].bytes >= 8192 { // no step in the other four: their time grows from 4 KiB on
				v := 408 * float64(ps[k].bytes) / 4096
				ps[k].tavg, ps[k].tmax, ps[k].tmin = v, v, v
			}
		}
		r := mkRun("osu", "allreduce", 3072, result.InterNode, ps, nil)
		r.Run.Source = &result.Source{Format: "osu", Hash: "reps", Line: 100 * i}
		all = append(all, r)
	}
	for _, f := range Explain(all[0], ExplainOptions{Peers: NewPeers(all)}) {
		if f.Kind == KindSwitch && f.Series.Benchmark == "" {
			t.Errorf("a step one repetition of five takes: %+v", f)
		}
	}
}

// TestBandwidthSwitch: osu_bibw over EDR with MVAPICH2 stalls at 8 KiB
// and jumps ×3.5 at 16 KiB (a field log): a protocol switch between 8 and
// 16 KiB, said once; a curve that doubles with the bytes says none.
func TestBandwidthSwitch(t *testing.T) {
	bw := []float64{0.41, 6.64, 6.53, 13.81, 26.13, 108.42, 104.53, 198.81, 386.22, 756.72, 1442.70, 2656.98, 4094.48, 3939.60,
		13761.10, 20393.19, 21665.25, 12580.34, 15710.90, 16988.46, 20136.39, 23863.32, 24320.34}
	var pts []pt
	for i, v := range bw {
		pts = append(pts, pt{bytes: int64(1) << i, bw: v})
	}
	var at [][]int64
	for _, f := range Explain(mkRun("osu", "bibw", 2, result.InterNode, pts, nil), ExplainOptions{}) {
		if f.Kind == KindSwitch {
			at = append(at, f.Sizes)
		}
	}
	if fmt.Sprint(at) != "[[8192 16384]]" {
		t.Errorf("switches %v, want [[8192 16384]]", at)
	}
	var smooth []pt
	for b := int64(1); b <= 1<<20; b *= 2 {
		smooth = append(smooth, pt{bytes: b, bw: float64(b) / (1 + float64(b)/10000)})
	}
	if f := find(Explain(mkRun("osu", "bw", 2, result.InterNode, smooth, nil), ExplainOptions{}), KindSwitch); f != nil {
		t.Errorf("a smooth curve: %+v", f)
	}
}

// TestRepeatsAreOneWitness: twenty launches of one osu_mbw_mr in one log
// (Lassen's) all falling at 128 KiB are one benchmark, not twenty that
// share a step: a cliff, not the MPI's switch.
func TestRepeatsAreOneWitness(t *testing.T) {
	var all []*result.Bundle
	for i := range 20 {
		var pts []pt
		for b := int64(1024); b <= 4<<20; b *= 2 {
			v := 700000 * float64(b) / float64(b+8<<10)
			if b >= 128<<10 {
				v *= 0.7
			}
			pts = append(pts, pt{bytes: b, bw: v * (1 + 0.001*float64(i))})
		}
		r := mkRun("osu", "mbw_mr", 256, result.InterNode, pts, nil)
		r.Run.Source = &result.Source{Format: "osu", Hash: "lassen", Line: 40 * i}
		all = append(all, r)
	}
	f := find(Explain(all[3], ExplainOptions{Peers: NewPeers(all)}), KindCliff)
	if f == nil || f.Severity != Warning {
		t.Errorf("a step twenty repetitions take: %+v", f)
	}
}

// TestGPUStagingOSU7: OSU 7 prints no buffer line and no 0-byte row; its
// device build's title says the run used GPU buffers. osu_latency D D at
// 21.8 µs beside the log's osu_latency at 3.19 µs (Slingshot, CSCS): the
// staging (a gpu WARNING) and the fabric read off the host run.
func TestGPUStagingOSU7(t *testing.T) {
	run := func(title string, lat float64, line int) *result.Bundle {
		r := mkRun("osu", "latency", 2, result.InterNode, pingpong(lat, 20000, one), nil)
		r.Run.Source = &result.Source{Format: "osu", Hash: "alps", Line: line, Meta: map[string]string{"title": title}}
		return r
	}
	host, dev := run("OSU MPI Latency Test v7.5", 3.19, 1), run("OSU MPI-CUDA Latency Test v7.5", 21.8, 40)
	peers := NewPeers([]*result.Bundle{host, dev})
	fs := Explain(dev, ExplainOptions{Peers: peers})
	if f := find(fs, KindGPU); f == nil || f.Severity != Warning || !strings.Contains(f.Summary, "one between host buffers") {
		t.Errorf("D D: %+v", f)
	}
	if f := find(fs, KindFabric); f == nil || !strings.Contains(f.Summary, "3.19 µs fits") {
		t.Errorf("D D fabric: %+v", f)
	}
	if f := find(Explain(host, ExplainOptions{Peers: peers}), KindGPU); f != nil {
		t.Errorf("H H: %+v", f)
	}
}

// TestGPUStagingH200: gomb osu latency with MPICH 4.0 (not CUDA-aware) on
// an NVIDIA H200, both ranks on the one GPU: D D, H D and host buffers,
// three runs of one log. gomb staged the copies itself (the records say
// so), and explain says that, not a missing GPUDirect: 278x the host
// latency between GPU buffers, 14x with one of them on the host.
func TestGPUStagingH200(t *testing.T) {
	runs := load(t, "testdata/h200_mpich_staged.jsonl")
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	peers := NewPeers(runs)
	for i, want := range []string{"278×", "14×", ""} { // D D, H D, host: the log's order
		f := find(Explain(runs[i], ExplainOptions{Peers: peers}), KindGPU)
		switch {
		case want == "" && f != nil:
			t.Errorf("host buffers: %+v", f)
		case want != "" && (f == nil || !strings.Contains(f.Summary, want) || !strings.Contains(f.Cause, "gomb staged every message")):
			t.Errorf("run %d: %+v, want %s and gomb's own staging", i, f, want)
		}
	}
}
