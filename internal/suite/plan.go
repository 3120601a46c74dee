package suite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/result"
)

// Test is what a row's measuring command says of itself once its flags
// are parsed: the message sizes it measures at a number of ranks ({0}:
// a test without sizes; nil: not known), and whether it needs an
// accelerator (its buffers on a GPU).
type Test struct {
	Sizes  []int64
	Device bool
}

// Checker parses a row's test (a gomb measuring command line without the
// binary) as the command itself does, for np ranks, without MPI.
type Checker func(args []string, np int) (Test, error)

// Command is a gomb measuring command a row's test may name, and what its
// own parsing says of a test (its arguments without the command's name).
type Command struct {
	Name string
	Test Checker
}

// Commands is the Checker of tests that name one of cmds: any other
// first word is refused (the error lists them), as are -list and -help
// (they run no test); the rest is the command's own parsing.
func Commands(cmds []Command) Checker {
	return func(args []string, np int) (Test, error) {
		var names []string
		for _, c := range cmds {
			if c.Name != args[0] {
				names = append(names, c.Name)
				continue
			}
			if slices.Contains(args[1:], "-list") || slices.Contains(args[1:], "-help") {
				return Test{}, errors.New("-list and -help run no test")
			}
			return c.Test(args[1:], np)
		}
		return Test{}, fmt.Errorf("%q is no gomb measuring command (%s)", args[0], strings.Join(names, ", "))
	}
}

// Options are what planning needs besides the file and the allocation.
type Options struct {
	Check    Checker
	Launcher Launcher
	// Campaign labels the records (default: the suite's name).
	Campaign string
	// Dir is where the records go (Dir/records/ROW-repK.jsonl).
	Dir string
	// Repetitions, when set, replaces every row's.
	Repetitions int
	// Extra are flags added to every row's test whose command is the key
	// ("osu": "-i 100 -x 10"), checked with it.
	Extra map[string][]string
	// Labels are more gomb flags for every launch (-system S).
	Labels []string
}

// Plan is a suite's launches on an allocation.
type Plan struct {
	File     *File
	Alloc    *Allocation
	Launcher Launcher
	Campaign string
	Rows     []*Planned
}

// Planned is one row on the allocation: its nodes and ranks, or why it
// cannot run here, and a launch a repetition.
type Planned struct {
	Row     *Row
	Hosts   []string // empty for a row Slurm places (Submit, shortest)
	Nodes   int
	PerNode int
	NP      int
	Skip    string // why the row cannot run here ("" : it runs)
	Path    string // why these two nodes (the path's length and its source)
	// Args are the measuring command's arguments common to its launches
	// (the test, the extra flags).
	Args     []string
	Launches []*Launch
}

// Launch is one repetition of a row.
type Launch struct {
	Row     *Planned
	Rep     int    // from 1
	Records string // its record file
	Cell    string // -cell: row=ID,rep=K
	// Gomb is the measuring command's arguments (what the records' command
	// line holds), Line the whole launcher line.
	Gomb []string
	Line []string
}

// Launches are every launch of the plan, in order.
func (p *Plan) Launches() []*Launch {
	var out []*Launch
	for _, r := range p.Rows {
		out = append(out, r.Launches...)
	}
	return out
}

// NoTopology is the line that says how to give a row's path a topology.
const NoTopology = "gomb knows no topology here: run inside a Slurm allocation whose cluster has the " +
	"topology/tree plugin, or give -topology topology.conf (Slurm's format, or scontrol show topology's " +
	"output), or -fleet fleet.jsonl (a gomb fleet sweep's records)"

// MakePlan plans every row of f on a: nodes, ranks, launch lines. A row
// that the file gets wrong or that this allocation cannot hold (an
// unknown test or flag, a size the test does not measure, more nodes than
// allocated, a per-nic row where a node has no network device up, a
// path with no topology) is an *Error naming its file, line and field; a
// row that needs what these nodes lack (an accelerator) is planned as
// skipped, with the reason.
func MakePlan(f *File, a *Allocation, o Options) (*Plan, error) {
	p := &Plan{File: f, Alloc: a, Launcher: o.Launcher, Campaign: o.Campaign}
	if p.Campaign == "" {
		p.Campaign = f.Suite
	}
	for _, r := range f.Rows {
		pr, err := planRow(r, a, &o)
		if err != nil {
			return nil, err
		}
		if pr.Skip == "" {
			reps := r.Repetitions
			if o.Repetitions > 0 {
				reps = o.Repetitions
			}
			for k := 1; k <= reps; k++ {
				l := &Launch{Row: pr, Rep: k, Cell: fmt.Sprintf("row=%s,rep=%d", r.ID, k)}
				l.Records = filepath.Join(o.Dir, "records", fmt.Sprintf("%s-rep%d.jsonl", r.ID, k))
				l.Gomb = slices.Concat(pr.Args, []string{"-json", l.Records, "-campaign", p.Campaign, "-cell", l.Cell}, o.Labels)
				by := ""
				if len(pr.Hosts) == 0 {
					by = "--switches=1"
				}
				hosts := pr.Hosts
				if len(hosts) == 0 {
					hosts = make([]string, pr.Nodes)
				}
				l.Line = o.Launcher.line(hosts, pr.PerNode, r.Placement, by, l.Gomb)
				pr.Launches = append(pr.Launches, l)
			}
		}
		p.Rows = append(p.Rows, pr)
	}
	return p, nil
}

func planRow(r *Row, a *Allocation, o *Options) (*Planned, error) {
	pr := &Planned{Row: r}
	for _, w := range r.Test {
		switch strings.SplitN(strings.TrimLeft(w, "-"), "=", 2)[0] {
		case "json", "o", "campaign", "cell":
			if strings.HasPrefix(w, "-") {
				return nil, r.errorf("test", "%s: the suite gives every launch -json, -campaign and -cell itself", w)
			}
		}
	}
	pr.Args = append([]string(nil), r.Test...)
	pr.Args = append(pr.Args, o.Extra[r.Test[0]]...)
	// the nodes
	switch {
	case r.Nodes == 0:
		pr.Nodes = len(a.Nodes)
		pr.Hosts = a.Nodes
	case r.Nodes > len(a.Nodes):
		return nil, r.errorf("nodes", "%d nodes, but the allocation has %d (%s)", r.Nodes, len(a.Nodes), a.Source)
	default:
		pr.Nodes = r.Nodes
		pr.Hosts = a.Nodes[:r.Nodes]
	}
	if r.Path != PathAny {
		switch {
		case o.Launcher.Submit && r.Path == PathShortest:
			pr.Hosts = nil
			pr.Path = "the nodes Slurm picks under one switch (--switches=1)"
		case a.Tree == nil && a.Fleet == nil:
			return nil, r.errorf("path", "%s: %s", r.Path, NoTopology)
		default:
			var pp pair
			var err error
			if a.Tree != nil {
				pp, err = a.Tree.pair(a.Nodes, r.Path)
			} else {
				pp, err = a.Fleet.pair(a.Nodes, r.Path)
			}
			if err != nil {
				return nil, r.errorf("path", "%s: %v", r.Path, err)
			}
			pr.Hosts = []string{a.Nodes[pp.a], a.Nodes[pp.b]}
			pr.Path = pp.note
		}
	}
	// the ranks a node
	hosts := pr.Hosts
	if len(hosts) == 0 {
		hosts = a.Nodes // Slurm picks: any node stands for them
	}
	per, skip, err := perNode(r, a, hosts)
	if err != nil {
		return nil, err
	}
	pr.PerNode, pr.NP, pr.Skip = per, per*pr.Nodes, skip
	// the test, as its command reads it
	np := max(pr.NP, 2)
	t, err := o.Check(pr.Args, np)
	if err != nil {
		field := "test"
		if len(o.Extra[r.Test[0]]) > 0 {
			err = fmt.Errorf("%v (with -extra %s's flags %s)", err, r.Test[0], strings.Join(o.Extra[r.Test[0]], " "))
		}
		return nil, r.errorf(field, "%s: %v", strings.Join(r.Test, " "), err)
	}
	if err := checkSizes(r, t); err != nil {
		return nil, err
	}
	if t.Device && pr.Skip == "" {
		for _, h := range hosts {
			if f := a.FactsOf(h); f != nil && len(f.GPUs) == 0 {
				pr.Skip = fmt.Sprintf("the test's buffers are on a GPU and %s has none", h)
				break
			}
		}
	}
	return pr, nil
}

// perNode is how many ranks the row's placement puts on each of hosts:
// the fewest any of them holds. A row that needs GPUs where a node has
// none is skipped; one that needs a NIC where a node has none is an error
// (every node of a cluster has one: not finding it is a misread node).
func perNode(r *Row, a *Allocation, hosts []string) (int, string, error) {
	if r.Placement.Kind == PerNode {
		return r.Placement.N, "", nil
	}
	least, where := -1, ""
	for _, h := range hosts {
		f := a.FactsOf(h)
		if f == nil {
			return 0, "", r.errorf("placement", "%s: nothing is known of node %s's hardware", r.Placement, h)
		}
		var n int
		switch r.Placement.Kind {
		case PerCore:
			n = f.Cores
		case PerSocket:
			n = f.Sockets
		case PerNIC:
			n = len(f.FabricNICs())
		case PerGPU:
			n = len(f.GPUs)
		}
		if least < 0 || n < least {
			least, where = n, h
		}
	}
	if least > 0 {
		return least, "", nil
	}
	switch r.Placement.Kind {
	case PerGPU:
		return 0, fmt.Sprintf("per-gpu: %s has no GPU (no NVIDIA, AMD or Intel 3D or display controller on its PCI bus)", where), nil
	case PerNIC:
		return 0, "", r.errorf("placement", "per-nic: no network device is up on %s (InfiniBand ports ACTIVE under "+
			"/sys/class/infiniband, cxi devices under /sys/class/cxi, Ethernet interfaces up under /sys/class/net)", where)
	}
	return 0, "", r.errorf("placement", "%s: %s has none", r.Placement, where)
}

// checkSizes holds the row's sizes to what its test measures.
func checkSizes(r *Row, t Test) error {
	sizeless := len(t.Sizes) == 1 && t.Sizes[0] == 0
	switch {
	case t.Sizes == nil:
		return nil
	case sizeless && len(r.Sizes) > 0:
		return r.errorf("sizes", "%s has no message size: leave sizes out", strings.Join(r.Test, " "))
	case sizeless:
		return nil
	case len(r.Sizes) == 0:
		return r.errorf("sizes", "name the sizes to report (%s measures %s)", strings.Join(r.Test, " "), sizeRange(t.Sizes))
	}
	for _, s := range r.Sizes {
		if !slices.Contains(t.Sizes, s) {
			return r.errorf("sizes", "%s is not among the sizes %s measures (%s)", analysis.Size(s), strings.Join(r.Test, " "), sizeRange(t.Sizes))
		}
	}
	return nil
}

func sizeRange(s []int64) string {
	if len(s) == 0 {
		return "none"
	}
	if len(s) <= 4 {
		var w []string
		for _, x := range s {
			w = append(w, analysis.Size(x))
		}
		return strings.Join(w, ", ")
	}
	return fmt.Sprintf("%s to %s, %d sizes", analysis.Size(s[0]), analysis.Size(s[len(s)-1]), len(s))
}

// Describe is the node's facts in words: "2 cores (2 threads), 1
// socket, NICs eth0 eth1, no GPU".
func Describe(f *result.Node) string {
	if f == nil {
		return "nothing known"
	}
	var nics []string
	for _, n := range f.FabricNICs() {
		nics = append(nics, n.Name)
	}
	nic := "no NIC up"
	if len(nics) > 0 {
		nic = "NICs " + strings.Join(nics, " ")
	}
	gpu := "no GPU"
	if len(f.GPUs) > 0 {
		gpu = strconv.Itoa(len(f.GPUs)) + " GPUs"
	}
	return fmt.Sprintf("%d cores (%d threads), %d sockets, %s, %s", f.Cores, f.Threads, f.Sockets, nic, gpu)
}
