package text

import (
	"bytes"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/suite"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// suiteTable is a results table of every kind of line: a PASS with a
// reference, a FAIL, a line without requirement, a skipped and a failed
// row.
func suiteTable(t *testing.T) *suite.Table {
	t.Helper()
	f, err := suite.Parse("s.yaml", []byte(`suite: s
title: OSU against X
reference: X
rows:
  - {id: lat, title: osu_latency, test: osu latency -m 8:8, sizes: 8, nodes: 2, path: longest, references: {X: 1.61 us}, required: <= 2 us}
  - {id: bw, title: osu_bibw, test: osu bibw, sizes: 1m, nodes: 2, metric: bandwidth, references: {X: 45307.17 MB/s}, required: ">= 40000 MB/s"}
  - {id: bar, title: osu_barrier, test: osu barrier, nodes: all, placement: per-core}
  - {id: gpu, title: osu_barrier, test: osu barrier, nodes: all, placement: per-gpu}
  - {id: a2a, title: osu_alltoall, test: osu alltoall -m 8:8, sizes: 8, nodes: all}
`))
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	ref := func(r *suite.Row, i int) *suite.Value { return r.Reference("X", i) }
	line := func(r *suite.Row, ranks, size, nodes string, v, spread, ratio float64, reps, planned int, verdict, reason string) *suite.Line {
		return &suite.Line{Row: r, Test: r.Title, Ranks: ranks, Size: size, Nodes: nodes, Value: v, Unit: r.Metric.Unit(),
			Values: []float64{v}, Spread: spread, Reps: reps, Planned: planned, Ref: ref(r, 0), Ratio: ratio, Required: r.Required,
			Verdict: verdict, Reason: reason, Bytes: 8}
	}
	lat := line(f.Rows[0], "1 per node (2 ranks)", "8 B", "2", 1.5, 0.02, 1.5/1.61, 3, 3, suite.Pass, "")
	lat.Test += " (longest path)"
	lat.PathNote, lat.Hosts = "n01 - n64", []string{"n01", "n64"}
	return &suite.Table{Suite: "s", Title: f.Title, Reference: "X", Missed: 1, Lines: []*suite.Line{
		lat,
		line(f.Rows[1], "1 per node (2 ranks)", "1 MiB", "2", 39000, nan, 39000/45307.17, 1, 3, suite.Fail, ""),
		line(f.Rows[2], "1 per physical core (128 ranks)", "N/A", "all (2)", 550, 0.1, nan, 3, 3, "", ""),
		line(f.Rows[3], "1 per GPU", "N/A", "all", nan, nan, nan, 0, 0, suite.Skipped, "per-gpu: n01 has no GPU"),
		line(f.Rows[4], "1 per node", "8 B", "all", nan, nan, nan, 0, 3, suite.Failed, "exit status 1: gomb osu: boom"),
	}}
}

func TestSuiteTable(t *testing.T) {
	tab := suiteTable(t)
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"suite.txt", func(b *bytes.Buffer) error { return Suite(b, tab) }},
		{"suite.md", func(b *bytes.Buffer) error { return SuiteMarkdown(b, tab) }},
		{"suite.csv", func(b *bytes.Buffer) error { return SuiteCSV(b, tab) }},
	} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		testutil.Golden(t, filepath.Join("testdata", c.name), b.Bytes(), *update)
	}
}

// TestSuitePlan: plans as gomb suite plan prints them: four nodes, this
// machine's hardware standing for them, a longest-path row, a GPU row
// skipped, a row over every core; then a row Slurm places (-submit) on
// nodes whose facts are known.
func TestSuitePlan(t *testing.T) {
	f, err := suite.Parse("s.yaml", []byte(`suite: s
rows:
  - {id: lat, test: osu latency -m 8:8, sizes: 8, nodes: 2, path: longest, repetitions: 2}
  - {id: gpu, test: osu latency -d cuda -m 8:8, sizes: 8, nodes: 2}
  - {id: bar, test: osu barrier, nodes: all, placement: per-core}
  - {id: near, test: osu latency -m 8:8, sizes: 8, nodes: 2, path: shortest}
`))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := suite.ParseTree(strings.NewReader("SwitchName=leaf1 Nodes=n[01-02]\nSwitchName=leaf2 Nodes=n[03-04]\nSwitchName=spine Switches=leaf[1-2]\n"), "topology.conf")
	if err != nil {
		t.Fatal(err)
	}
	nodes := []string{"n01", "n02", "n03", "n04"}
	facts := map[string]*result.Node{}
	for _, n := range nodes {
		facts[n] = &result.Node{Host: n, Cores: 2, Threads: 2, Sockets: 1, GPUs: []result.GPU{{Vendor: "nvidia"}}}
	}
	check := func(args []string, np int) (suite.Test, error) {
		return suite.Test{Device: slices.Contains(args, "cuda")}, nil
	}
	var b bytes.Buffer
	for _, c := range []struct {
		a *suite.Allocation
		l suite.Launcher
	}{
		{&suite.Allocation{Nodes: nodes, Source: "-nodes n[01-04]", Tree: tree, Assumed: &result.Node{Host: "here", Cores: 4, Threads: 8, Sockets: 1}},
			suite.Launcher{Kind: suite.Mpirun, Gomb: "gomb"}},
		{&suite.Allocation{Nodes: nodes, Source: "-nodes n[01-04]", Tree: tree, Facts: facts},
			suite.Launcher{Kind: suite.Srun, Submit: true, MPI: "pmix", Gomb: "gomb"}},
	} {
		p, err := suite.MakePlan(f, c.a, suite.Options{Check: check, Launcher: c.l, Dir: "DIR", Labels: []string{"-system", "x"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := SuitePlan(&b, p); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	testutil.Golden(t, filepath.Join("testdata", "suite-plan.txt"), b.Bytes(), *update)
}
