package suite

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/suites"
)

// fakeCheck stands for the measuring commands' own parsing: only osu is
// one (fakeOSU).
var fakeCheck = Commands([]Command{{Name: "osu", Test: fakeOSU}})

// fakeOSU stands for gomb osu's parsing: "NAME [-m MIN:MAX] [-d cuda]"
// measures MIN to MAX doubling; "barrier" has no size; anything else is
// refused, as the command would.
func fakeOSU(args []string, np int) (Test, error) {
	if len(args) < 1 {
		return Test{}, fmt.Errorf("name a test")
	}
	t := Test{Sizes: []int64{0}}
	if args[0] != "barrier" {
		t.Sizes = nil
		for s := int64(1); s <= 1<<22; s *= 2 {
			t.Sizes = append(t.Sizes, s)
		}
	}
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-m":
			var lo, hi int64
			if i+1 >= len(args) {
				return Test{}, fmt.Errorf("-m needs a value")
			}
			if _, err := fmt.Sscanf(args[i+1], "%d:%d", &lo, &hi); err != nil {
				return Test{}, fmt.Errorf("-m %s: want MIN:MAX", args[i+1])
			}
			t.Sizes = nil
			for s := lo; s <= hi; s *= 2 {
				t.Sizes = append(t.Sizes, s)
			}
			i++
		case "-d":
			t.Device = true
			i++
		case "-i", "-x":
			i++
		default:
			return Test{}, fmt.Errorf("flag provided but not defined: %s", args[i])
		}
	}
	return t, nil
}

func node(host string, cores, sockets, nics, gpus int) *result.Node {
	n := &result.Node{Type: result.TypeNode, Host: host, Cores: cores, Threads: 2 * cores, Sockets: sockets}
	for i := 0; i < nics; i++ {
		n.NICs = append(n.NICs, result.NIC{Name: fmt.Sprintf("eth%d", i), Kind: result.NICEthernet, NUMA: -1})
	}
	for i := 0; i < gpus; i++ {
		n.GPUs = append(n.GPUs, result.GPU{PCI: fmt.Sprintf("0000:%02x:00.0", i), Vendor: "nvidia"})
	}
	return n
}

// bed is six nodes in two racks: h1-h3 under leaf1, h4-h6 under leaf2.
func bed(t *testing.T, nics int) *Allocation {
	t.Helper()
	tree, err := ParseTree(strings.NewReader("SwitchName=leaf1 Nodes=h[1-3]\nSwitchName=leaf2 Nodes=h[4-6]\nSwitchName=spine Switches=leaf[1-2]\n"), "topology.conf")
	if err != nil {
		t.Fatal(err)
	}
	a := &Allocation{Nodes: []string{"h1", "h2", "h3", "h4", "h5", "h6"}, Source: "test", Facts: map[string]*result.Node{}, Tree: tree}
	for _, h := range a.Nodes {
		a.Facts[h] = node(h, 2, 1, nics, 0)
	}
	return a
}

func plan(t *testing.T, yaml string, a *Allocation, l Launcher) (*Plan, error) {
	t.Helper()
	f, err := Parse("s.yaml", []byte(yaml))
	if err != nil {
		return nil, err
	}
	return MakePlan(f, a, Options{Check: fakeCheck, Launcher: l, Dir: "out"})
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	head := "suite: s\nrows:\n"
	for _, c := range []struct {
		name, yaml, want string
	}{
		{"unknown key", head + "  - test: osu latency\n    nodes: 2\n    sizez: [8]\n", "s.yaml:5: rows[1].sizez: unknown key"},
		{"unknown top key", "suite: s\nrepetition: 3\nrows:\n  - {test: osu barrier, nodes: 2}\n", "s.yaml:2: repetition: unknown key"},
		{"unknown placement", head + "  - test: osu latency\n    sizes: 8\n    nodes: 2\n    placement: per-cor\n", `s.yaml:6: rows[1].placement: unknown placement "per-cor"`},
		{"size typo", head + "  - test: osu latency\n    sizes: [8, 16kk]\n    nodes: 2\n", `s.yaml:4: rows[1].sizes: size "16kk": unknown suffix`},
		{"bad nodes", head + "  - test: osu latency\n    nodes: two\n", `s.yaml:4: rows[1].nodes: "two": want a number`},
		{"no nodes", head + "  - test: osu latency\n", "s.yaml:3: rows[1]: no nodes"},
		{"path on 3 nodes", head + "  - test: osu latency\n    nodes: 3\n    path: longest\n", "s.yaml:5: rows[1].path: longest applies to two-node rows"},
		{"bad unit", head + "  - test: osu latency\n    nodes: 2\n    references: {X: 3 MB/s}\n", `s.yaml:5: rows[1].references.X: "3 MB/s": MB/s is no unit of latency`},
		{"bad requirement", head + "  - test: osu latency\n    nodes: 2\n    required: about 2 us\n", `s.yaml:5: rows[1].required: "about 2 us": want <=`},
		{"references a size", head + "  - test: osu latency\n    sizes: [8, 16]\n    nodes: 2\n    references: {X: [1 us]}\n", "s.yaml:6: rows[1].references.X: 1 values for 2 sizes"},
		{"duplicate id", head + "  - {id: a, test: osu barrier, nodes: 2}\n  - {id: a, test: osu barrier, nodes: 2}\n", `s.yaml:4: rows[2].id: "a" is also row 1's id`},
		{"duplicate key", head + "  - test: osu barrier\n    nodes: 2\n    nodes: 3\n", "s.yaml:5: rows[1].nodes: given twice (first at line 4)"},
		{"not yaml", "suite: [s\n", "s.yaml:1: not YAML"},
		{"no rows", "suite: s\n", "s.yaml:1: no rows"},
		{"unknown reference", "suite: s\nreference: Y\nrows:\n  - {test: osu barrier, nodes: 2, references: {X: 1 us}}\n", `s.yaml:2: reference: "Y" is no system`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(c.yaml))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v\nwant one line starting %q", err, c.want)
			}
		})
	}
}

// TestPlanErrors: what the allocation cannot hold is refused with the
// file, line and field.
func TestPlanErrors(t *testing.T) {
	t.Parallel()
	head := "suite: s\nrows:\n"
	noTree := bed(t, 1)
	noTree.Tree = nil
	noNIC := bed(t, 0)
	for _, c := range []struct {
		name, yaml string
		a          *Allocation
		want       string
	}{
		{"unknown test", head + "  - test: osu latencyy -m 8:8 -q\n    sizes: 8\n    nodes: 2\n", bed(t, 1), `s.yaml:3: rows[1].test: osu latencyy -m 8:8 -q: flag provided but not defined: -q`},
		{"not a command", head + "  - test: ods latency\n    nodes: 2\n", bed(t, 1), `s.yaml:3: rows[1].test: ods latency: "ods" is no gomb measuring command (osu)`},
		{"-list", head + "  - test: osu latency -list\n    nodes: 2\n", bed(t, 1), `s.yaml:3: rows[1].test: osu latency -list: -list and -help run no test`},
		{"size not measured", head + "  - test: osu allreduce -m 8:1677216\n    sizes: [8, 16m]\n    nodes: 2\n", bed(t, 1), "s.yaml:4: rows[1].sizes: 16 MiB is not among the sizes osu allreduce -m 8:1677216 measures (8 B to 1 MiB, 18 sizes)"},
		{"sizes of a sizeless test", head + "  - test: osu barrier\n    sizes: 8\n    nodes: 2\n", bed(t, 1), "s.yaml:4: rows[1].sizes: osu barrier has no message size"},
		{"more nodes than allocated", head + "  - test: osu barrier\n    nodes: 8\n", bed(t, 1), "s.yaml:4: rows[1].nodes: 8 nodes, but the allocation has 6 (test)"},
		{"per-nic without NIC", head + "  - test: osu barrier\n    nodes: 2\n    placement: per-nic\n", noNIC, "s.yaml:5: rows[1].placement: per-nic: no network device is up on h1"},
		{"longest without topology", head + "  - test: osu latency -m 8:8\n    sizes: 8\n    nodes: 2\n    path: longest\n", noTree, "s.yaml:6: rows[1].path: longest: gomb knows no topology here"},
		{"suite's own flags", head + "  - test: osu barrier -json x.jsonl\n    nodes: 2\n", bed(t, 1), "s.yaml:3: rows[1].test: -json: the suite gives every launch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := plan(t, c.yaml, c.a, Launcher{Kind: Srun, Gomb: "gomb"})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v\nwant one line starting %q", err, c.want)
			}
		})
	}
}

// TestPlacements: the ranks a node of every placement, from the facts;
// a GPU row where there is none is skipped with its reason.
func TestPlacements(t *testing.T) {
	t.Parallel()
	a := bed(t, 2)
	a.Facts["h2"] = node("h2", 4, 2, 2, 0)
	for _, c := range []struct {
		placement string
		nodes     string
		per, np   int
		skip      string
	}{
		{"per-node 1", "2", 1, 2, ""},
		{"per-node 3", "2", 3, 6, ""},
		{"per-core", "2", 2, 4, ""}, // h1 has 2 cores, h2 4: the fewest
		{"per-core", "all", 2, 12, ""},
		{"per-socket", "2", 1, 2, ""},
		{"per-nic", "2", 2, 4, ""},
		{"per-gpu", "all", 0, 0, "per-gpu: h1 has no GPU"},
	} {
		p, err := plan(t, fmt.Sprintf("suite: s\nrows:\n  - {test: osu barrier, nodes: %s, placement: %s}\n", c.nodes, c.placement), a, Launcher{Kind: Srun, Gomb: "gomb"})
		if err != nil {
			t.Fatal(err)
		}
		r := p.Rows[0]
		if r.PerNode != c.per || r.NP != c.np || !strings.HasPrefix(r.Skip, c.skip) || (c.skip == "") != (r.Skip == "") {
			t.Errorf("%s on %s nodes: %d a node, %d ranks, skip %q; want %d, %d, %q", c.placement, c.nodes, r.PerNode, r.NP, r.Skip, c.per, c.np, c.skip)
		}
	}
	// a test on GPU buffers is skipped on nodes without
	p, err := plan(t, "suite: s\nrows:\n  - {test: osu bw -m 8:8 -d cuda, sizes: 8, nodes: 2}\n", a, Launcher{Kind: Srun, Gomb: "gomb"})
	if err != nil || !strings.Contains(p.Rows[0].Skip, "GPU") || len(p.Rows[0].Launches) != 0 {
		t.Errorf("device row: %v %+v", err, p.Rows[0])
	}
	a.Facts["h1"], a.Facts["h2"] = node("h1", 2, 1, 1, 4), node("h2", 2, 1, 1, 4)
	p, err = plan(t, "suite: s\nrows:\n  - {test: osu bw -m 8:8 -d cuda, sizes: 8, nodes: 2, placement: per-gpu}\n", a, Launcher{Kind: Srun, Gomb: "gomb"})
	if err != nil || p.Rows[0].Skip != "" || p.Rows[0].NP != 8 {
		t.Errorf("per-gpu on GPU nodes: %v %+v", err, p.Rows[0])
	}
}

// TestPaths: the longest path crosses the spine, the shortest stays
// under a leaf; on a fleet sweep, the highest and lowest latency pairs.
func TestPaths(t *testing.T) {
	t.Parallel()
	row := "suite: s\nrows:\n  - {test: osu latency -m 8:8, sizes: 8, nodes: 2, path: %s}\n"
	for _, c := range []struct {
		a      *Allocation
		path   string
		want   string
		source string
	}{
		{bed(t, 1), "longest", "h1 h4", "3 switches"},
		{bed(t, 1), "shortest", "h1 h2", "1 switch"},
	} {
		p, err := plan(t, fmt.Sprintf(row, c.path), c.a, Launcher{Kind: Srun, Gomb: "gomb"})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Rows[0].Hosts, " "); got != c.want || !strings.Contains(p.Rows[0].Path, c.source) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.path, got, p.Rows[0].Path, c.want, c.source)
		}
	}
	// a deeper tree: three levels; the farthest leaves are under different
	// pods
	deep, err := ParseTree(strings.NewReader(`# fat tree
SwitchName=l1 Nodes=n[01-02]
SwitchName=l2 Nodes=n[03-04]
SwitchName=l3 Nodes=n[05-06]
SwitchName=p1 Switches=l[1-2]
SwitchName=p2 Switches=l3
SwitchName=core Switches=p[1-2]
`), "deep")
	if err != nil {
		t.Fatal(err)
	}
	nodes := []string{"n01", "n02", "n03", "n04", "n05", "n06"}
	for _, c := range []struct {
		path, want string
		cost       float64
	}{{"longest", "n01 n05", 5}, {"shortest", "n01 n02", 1}} {
		pp, err := deep.pair(nodes, Path(c.path))
		if err != nil || nodes[pp.a]+" "+nodes[pp.b] != c.want || pp.cost != c.cost {
			t.Errorf("deep %s: %v %s %s %v, want %s %v", c.path, err, nodes[pp.a], nodes[pp.b], pp.cost, c.want, c.cost)
		}
	}
	// fleet: h2-h5 is the slowest pair, h3-h6 the fastest
	nan := math.NaN()
	lat := [][]float64{
		{nan, 10, 11, 30, 31, 32},
		{10, nan, 10, 31, 90, 30},
		{11, 10, nan, 30, 31, 5},
		{30, 31, 30, nan, 10, 10},
		{31, 90, 31, 10, nan, 11},
		{32, 30, 5, 10, 11, nan},
	}
	a := bed(t, 1)
	a.Tree = nil
	a.Fleet = NewFleet("fleet.jsonl", []string{"h1", "h2", "h3", "h4", "h5", "h6"}, lat)
	for _, c := range []struct{ path, want string }{{"longest", "h2 h5"}, {"shortest", "h3 h6"}} {
		p, err := plan(t, fmt.Sprintf(row, c.path), a, Launcher{Kind: Srun, Gomb: "gomb"})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Rows[0].Hosts, " "); got != c.want || !strings.Contains(p.Rows[0].Path, "fleet.jsonl") {
			t.Errorf("fleet %s: %s (%s), want %s", c.path, got, p.Rows[0].Path, c.want)
		}
	}
	// -submit: Slurm places a shortest-path row under one switch
	a.Fleet = nil
	p, err := plan(t, fmt.Sprintf(row, "shortest"), a, Launcher{Kind: Srun, Gomb: "gomb", Submit: true})
	if err != nil || !strings.Contains(strings.Join(p.Rows[0].Launches[0].Line, " "), "--switches=1") {
		t.Errorf("submit: %v %v", err, p.Rows[0].Launches[0].Line)
	}
}

// TestLaunchLines: each launcher's line for a placement, the records
// labelled with the campaign and the cell.
func TestLaunchLines(t *testing.T) {
	t.Parallel()
	a := bed(t, 2)
	y := "suite: s\nrows:\n  - {id: mbw, test: osu mbw_mr -m 16:16, sizes: 16, nodes: 2, placement: per-nic}\n"
	for _, c := range []struct {
		l    Launcher
		want string
	}{
		{Launcher{Kind: Srun, Gomb: "gomb", MPI: "pmix"}, "srun --nodes=2 --ntasks=4 --ntasks-per-node=2 --nodelist=h[1-2] --mpi=pmix --cpu-bind=ldoms --kill-on-bad-exit=1 gomb osu mbw_mr -m 16:16 -json out/records/mbw-rep1.jsonl -campaign s -cell row=mbw,rep=1"},
		{Launcher{Kind: Mpirun, Gomb: "gomb", NoBind: true}, "mpirun -np 4 --host h1:2,h2:2 --map-by ppr:2:node --bind-to none gomb osu mbw_mr"},
		{Launcher{Kind: Mpiexec, Program: "mpirun.mpich", Gomb: "gomb"}, "mpirun.mpich -n 4 -hosts h1,h2 -ppn 2 -bind-to numa gomb osu mbw_mr"},
	} {
		p, err := plan(t, y, a, c.l)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Rows[0].Launches[0].Line, " "); !strings.HasPrefix(got, c.want) {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestHostlists(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		list string
		want string
	}{
		{"nid[001-004,010]", "nid001 nid002 nid003 nid004 nid010"},
		{"gtb-h[1-3],login1", "gtb-h1 gtb-h2 gtb-h3 login1"},
		{"r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2"},
	} {
		got, err := ExpandHostlistUnique(c.list)
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%s: %v %v, want %s", c.list, got, err, c.want)
		}
		if back, err := ExpandHostlistUnique(Compress(got)); err != nil || strings.Join(back, " ") != c.want {
			t.Errorf("Compress(%v) = %s reads back as %v %v", got, Compress(got), back, err)
		}
	}
	if got := Compress([]string{"nid001", "nid002", "nid003", "nid004", "nid010"}); got != "nid[001-004,010]" {
		t.Errorf("Compress: %s", got)
	}
	hf := "# mpirun's and mpiexec's\nnode01 slots=4\nnode02:2\n\nnode01\nnode03 max_slots=8\n"
	nodes, err := ParseHostfile(strings.NewReader(hf), "hf")
	if err != nil || strings.Join(nodes, " ") != "node01 node02 node03" {
		t.Errorf("hostfile: %v %v", nodes, err)
	}
	if _, err := ParseHostfile(strings.NewReader("node01 slotz=4\n"), "hf"); err == nil || !strings.HasPrefix(err.Error(), "hf:1:") {
		t.Errorf("bad hostfile: %v", err)
	}
}

// TestShippedSuites: the suites gomb ships parse and plan on the test
// bed's shape (two racks of three nodes, two NICs, no GPU).
func TestShippedSuites(t *testing.T) {
	t.Parallel()
	for _, name := range suites.Names() {
		f, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != "suites/"+name+".yaml" {
			t.Errorf("%s: named %s", name, f.Name)
		}
		if f.Reference == "" {
			t.Errorf("%s: no reference system", name)
		}
		if _, err := MakePlan(f, bed(t, 2), Options{Check: acceptAll, Launcher: Launcher{Kind: Srun, Gomb: "gomb"}, Dir: "out"}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// acceptAll takes every test (the shipped suites' tests are checked by
// the gomb binary's own parsing in cmd/gomb's tests).
func acceptAll(args []string, np int) (Test, error) {
	return Test{Device: strings.Contains(strings.Join(args, " "), "-d cuda")}, nil
}

// BenchmarkPlan10000: a 10,000-node allocation under a three-level tree
// (32 nodes a leaf) plans the shipped OSU suite; it must take well under
// a second.
func BenchmarkPlan10000(b *testing.B) {
	var conf strings.Builder
	var nodes []string
	for l := 0; l < 10000/32+1; l++ {
		fmt.Fprintf(&conf, "SwitchName=l%d Nodes=nid[%05d-%05d]\n", l, l*32+1, l*32+32)
	}
	for p := 0; p < 10; p++ {
		fmt.Fprintf(&conf, "SwitchName=p%d Switches=l[%d-%d]\n", p, p*32, p*32+31)
	}
	fmt.Fprintf(&conf, "SwitchName=core Switches=p[0-9]\n")
	for i := 1; i <= 10000; i++ {
		nodes = append(nodes, fmt.Sprintf("nid%05d", i))
	}
	f, err := Load("osu-crossroads")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		tree, err := ParseTree(strings.NewReader(conf.String()), "topology.conf")
		if err != nil {
			b.Fatal(err)
		}
		a := &Allocation{Nodes: nodes, Source: "bench", Tree: tree, Assumed: node("any", 128, 2, 4, 4)}
		p, err := MakePlan(f, a, Options{Check: acceptAll, Launcher: Launcher{Kind: Srun, Gomb: "gomb"}, Dir: "out"})
		if err != nil {
			b.Fatal(err)
		}
		if p.Rows[0].Hosts[1] == p.Rows[0].Hosts[0] {
			b.Fatal("one node twice")
		}
	}
}

// TestLoad: a suite file by its path, a shipped suite by its name, and
// a name that is neither, with the shipped suites listed.
func TestLoad(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "osu-crossroads")
	if err := os.WriteFile(path, []byte("suite: mine\nrows:\n  - {test: osu barrier, nodes: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, suite, err string }{
		{path, "mine", ""},
		{"osu-crossroads.yaml", "osu-crossroads", ""},
		{"nosuch", "", "suite: open nosuch: no such file or directory (nor is it a shipped suite: " + strings.Join(suites.Names(), ", ") + ")"},
	} {
		f, err := Load(c.name)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: %v, want %s", c.name, err, c.err)
		case c.err == "" && (err != nil || f.Suite != c.suite):
			t.Errorf("%s: %v, want suite %s", c.name, err, c.suite)
		}
	}
}

// TestFactsRoundTrip: node records written are read back.
func TestFactsRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	facts := map[string]*result.Node{"h1": node("h1", 2, 1, 2, 0), "h2": node("h2", 4, 2, 1, 1)}
	f, err := os.Create(filepath.Join(dir, FactsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFacts(f, []string{"h1", "h2"}, facts); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := ReadFactsFile(filepath.Join(dir, FactsFile))
	if err != nil || len(got) != 2 || got["h2"].Cores != 4 || len(got["h1"].NICs) != 2 || len(got["h2"].GPUs) != 1 {
		t.Errorf("%v %+v", err, got)
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range suites.Names() {
		data, _, _ := suites.Open(n)
		f.Add(data)
	}
	f.Add([]byte("suite: s\nrows:\n  - {test: osu barrier, nodes: all}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("f.yaml", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Errorf("error not one line naming the file: %q", err)
			}
			return
		}
		if file.Suite == "" || len(file.Rows) == 0 {
			t.Errorf("parsed without suite or rows")
		}
	})
}
