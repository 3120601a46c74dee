package imb

// Planning an IMB run (IMB-MPI1 and the other suites): from what the user asked (names, files, flags)
// to the list of benchmarks and the options every rank runs with.

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// DefaultNames are the suite's default benchmarks, in run order.
func DefaultNames(suite string) []string {
	var names []string
	for _, s := range DefaultSpecs(suite) {
		names = append(names, s.Name)
	}
	return names
}

// Request is what the user asked: benchmark names (from the command line
// and -input), -include, -exclude, -msglen, and the options.
type Request struct {
	Options          Options
	Names            []string
	Include, Exclude []string
	Input, MsgLen    string // files, read by the rank that plans
	NPMinSet         bool   // -npmin was given
}

// Plan is what rank 0 resolves from the request and broadcasts, so that
// every rank runs exactly the same thing.
type Plan struct {
	Err        string   `json:"err,omitempty"`
	Options    Options  `json:"options"`
	Benchmarks []string `json:"benchmarks"`
}

// Resolve reads -msglen and -input (on rank 0 only: nodes need not share a
// file system) and builds the benchmark list for world processes.
func Resolve(req Request, world int) (*Plan, error) {
	p := &Plan{Options: req.Options}
	o := &p.Options
	if req.MsgLen != "" {
		f, err := os.Open(req.MsgLen)
		if err != nil {
			return nil, fmt.Errorf("-msglen: %v", err)
		}
		defer f.Close()
		if o.Sizes, err = ParseMsgLen(f, req.MsgLen); err != nil {
			return nil, fmt.Errorf("-msglen %v", err)
		}
	}
	names := append([]string(nil), req.Names...)
	if req.Input != "" {
		b, err := os.ReadFile(req.Input)
		if err != nil {
			return nil, fmt.Errorf("-input: %v", err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				names = append(names, l)
			}
		}
	}
	explicit := len(names) > 0 || len(req.Include) > 0
	if len(names) == 0 {
		names = DefaultNames(o.SuiteName())
	}
	names = append(names, req.Include...)
	var list []*Spec
	seen := map[*Spec]bool{}
	for _, n := range names {
		s, ok := Lookup(o.SuiteName(), n)
		if !ok {
			return nil, fmt.Errorf("unknown benchmark %q ('gomb %s -list' shows the names)", n, o.SuiteName())
		}
		if !seen[s] {
			seen[s] = true
			list = append(list, s)
		}
	}
	for _, n := range req.Exclude {
		s, ok := Lookup(o.SuiteName(), n)
		if !ok {
			return nil, fmt.Errorf("-exclude: unknown benchmark %q", n)
		}
		for i, x := range list {
			if x == s {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
	}
	if len(list) == 0 {
		return nil, errors.New("no benchmark left to run")
	}
	if !req.NPMinSet && o.NPMin > world {
		o.NPMin = world // IMB's default of 2 on a single rank
	}
	if err := o.ValidateWorld(world); err != nil {
		return nil, err
	}
	for _, s := range list {
		if explicit && s.MinRanks() > world {
			return nil, fmt.Errorf("benchmark %s needs at least %d processes, %d started", s.Name, s.MinRanks(), world)
		}
		p.Benchmarks = append(p.Benchmarks, s.Name)
	}
	return p, nil
}

// Steps calls f for every benchmark and process count a run of specs
// goes through, in the engine's order; ok is false where the benchmark
// cannot run with np processes (skip: and IMB says nothing of it). It
// stops at f's first error.
func (o *Options) Steps(specs []*Spec, world int, f func(s *Spec, np int, ok, skip bool) error) error {
	for _, s := range specs {
		nps := NPSequence(o.NPMin, world)
		if s.IO.Single { // IMB-IO's S_ benchmarks run on one process only
			nps = []int{1}
		}
		for _, np := range nps {
			ok, skip := s.Valid(np)
			if err := f(s, np, ok, skip); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sizes are the message sizes the plan's benchmarks measure, each once,
// in the order they first come.
func (p *Plan) Sizes() []int64 {
	var out []int64
	for _, b := range p.Benchmarks {
		s, ok := Lookup(p.Options.SuiteName(), b)
		if !ok {
			continue
		}
		for _, x := range p.Options.SizesOf(s) {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	return out
}

// SizesOf is the message sizes the engine measures s at ({0} for a
// benchmark without sizes, such as Barrier).
func (o *Options) SizesOf(s *Spec) []int64 {
	if !s.HasSize() {
		return []int64{0}
	}
	unit := o.Unit(s)
	if s.RedUnit || s.OneElement {
		unit = int64(o.RedType.Size())
	}
	if s.OneElement { // IMB's one size, capped as its sweeps are
		return []int64{min(unit, o.MaxMsg(unit))}
	}
	if s.Suite == SuiteEXT {
		return o.extSizeList(unit)
	}
	return o.SizeList(unit)
}

// extAssign is IMB-EXT's assign_type (int, or float with the reduction's
// default): its sweep's first size is at most one of them.
const extAssign = 4

// extSizeList is IMB-EXT's -msglog sweep (IMB_2018.c, #ifdef EXT): 0,
// then min(2^min rounded up to unit, sizeof(assign_type)), then that
// doubled while below 2^max, each rounded up to unit: -msglog 3:6 is
// 0 4 8 16 32 64, where IMB-MPI1's is 0 8 16 32 64. A list of sizes
// (-msglen, -msgsize) is IMB-MPI1's.
func (o *Options) extSizeList(unit int64) []int64 {
	if o.Sizes != nil {
		return o.SizeList(unit)
	}
	maxMsg := o.MaxMsg(unit)
	var out []int64
	if o.ZeroSize {
		out = append(out, 0)
	}
	size := min(roundUp(int64(1)<<o.MsgLogMin, unit), extAssign)
	for {
		s := min(roundUp(size, unit), maxMsg)
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
		if s >= int64(1)<<o.MsgLogMax || s >= maxMsg {
			return out
		}
		size = s + s
	}
}

// WarmupMode is the mode of the warm-up before a size of s's table in
// mode: IMB-RMA's warms up in the first mode the run has (IMB's
// RUN_MODES[0]: non-aggregate, or the one -aggregate_mode leaves),
// whatever the table's.
func (o *Options) WarmupMode(s *Spec, mode string) string {
	if s.NonAggrFirst {
		return o.RunModes(s)[0]
	}
	return mode
}

// RunModes are the modes the engine runs s in: its own, less the one
// -aggregate_mode leaves out.
func (o *Options) RunModes(s *Spec) []string {
	modes := s.RunModes()
	if o.AggregateMode == "" || len(modes) < 2 {
		return modes
	}
	return []string{o.AggregateMode}
}

// Rows is the number of result rows a run of specs prints (over all
// groups with -multi 0): the length of its progress bar.
func (o *Options) Rows(specs []*Spec, world int) int {
	n := 0
	o.Steps(specs, world, func(s *Spec, _ int, ok, _ bool) error {
		if ok {
			n += len(o.SizesOf(s)) * len(o.RunModes(s))
		}
		return nil
	})
	return n
}
