package imb

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// IMB-MPI1's default list in run order, and its other benchmarks.
var imbDefault = []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce",
	"Reduce_local", "Reduce_scatter", "Reduce_scatter_block", "Allgather", "Allgatherv", "Gather",
	"Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv", "Bcast", "Barrier"}
var imbOthers = []string{"PingPongSpecificSource", "PingPongAnySource", "PingPingSpecificSource",
	"PingPingAnySource", "Uniband", "Biband"}

func TestRegistry(t *testing.T) {
	var got []string
	for _, s := range DefaultSpecs(Suite) {
		got = append(got, s.Name)
	}
	if !reflect.DeepEqual(got, imbDefault) {
		t.Errorf("default list\n got %v\nwant %v", got, imbDefault)
	}
	all := Specs(Suite)
	if len(all) != len(imbDefault)+len(imbOthers) {
		t.Errorf("%d benchmarks registered, want %d", len(all), len(imbDefault)+len(imbOthers))
	}
	for _, n := range append(append([]string{}, imbDefault...), imbOthers...) {
		for _, v := range []string{n, strings.ToLower(n), strings.ToUpper(n)} {
			if s, ok := Lookup(Suite, v); !ok || s.Name != n {
				t.Errorf("Lookup(%q) = %v, %v", v, s, ok)
			}
		}
	}
}

func TestSpecTraits(t *testing.T) {
	bw := map[string]float64{"PingPong": 1, "PingPing": 1, "Sendrecv": 2, "Exchange": 4, "Uniband": 1, "Biband": 2}
	for _, s := range Specs(Suite) {
		if !s.Kernel.Valid() || s.Summary == "" {
			t.Errorf("%s: kernel %v, summary %q", s.Name, s.Kernel, s.Summary)
		}
		wantScale := 1.0
		if strings.HasPrefix(s.Name, "PingPong") {
			wantScale = 0.5
		}
		if s.TimeScale != wantScale {
			t.Errorf("%s: time scale %g, want %g", s.Name, s.TimeScale, wantScale)
		}
		base := strings.TrimSuffix(strings.TrimSuffix(s.Name, "SpecificSource"), "AnySource")
		if s.BWScale != bw[base] {
			t.Errorf("%s: bandwidth factor %g, want %g", s.Name, s.BWScale, bw[base])
		}
		if s.Reduction != strings.Contains(strings.ToLower(s.Name), "reduce") {
			t.Errorf("%s: reduction %v", s.Name, s.Reduction)
		}
		// Buffers must hold what the kernel moves.
		snd, rcv := s.Buffers(1000, 4)
		if s.Family != Sync && (snd < 1000 || rcv < 1000) {
			t.Errorf("%s: buffers %d/%d for 1000 B", s.Name, snd, rcv)
		}
	}
}

// TestRows: the progress bar's length is the rows the engine prints: every
// size of each benchmark, at each process count it runs with.
func TestRows(t *testing.T) {
	get := func(names ...string) []*Spec {
		var specs []*Spec
		for _, n := range names {
			s, ok := Lookup(Suite, n)
			if !ok {
				t.Fatal(n)
			}
			specs = append(specs, s)
		}
		return specs
	}
	o := DefaultOptions()
	sizes := len(o.SizeList(1))
	for _, c := range []struct {
		names []string
		world int
		want  int
	}{
		{[]string{"PingPong", "Barrier"}, 2, sizes + 1},
		{[]string{"PingPong", "Allreduce", "Barrier"}, 4, sizes + 2*(sizes-2) + 2}, // np 2 and 4 for the collectives; floats skip 1 and 2 bytes
		{[]string{"PingPong"}, 1, 0},                                               // needs 2
	} {
		o := o
		o.NPMin = min(2, c.world)
		if got := o.Rows(get(c.names...), c.world); got != c.want {
			t.Errorf("%v on %d ranks: %d rows, want %d", c.names, c.world, got, c.want)
		}
	}
}

// Every spec's traits are registered with it, and say what analysis reads:
// one reference ping-pong, the single transfers latency-kind and led by
// t_max, a cost model for every collective but Reduce_local.
func TestTraits(t *testing.T) {
	refs := 0
	for _, s := range Specs(Suite) {
		tr, ok := bench.TraitsOf(Suite, s.Name)
		if !ok || tr.Name != s.Name || tr.Label != s.Name {
			t.Errorf("%s: traits %+v, %v", s.Name, tr, ok)
			continue
		}
		if tr.Reference {
			refs++
		}
		single := s.Family == SingleTransfer
		if tr.Latency != single || (tr.Lead == bench.LeadMaxTime) != single || tr.Rooted != s.Rooted || tr.Sizeless != !s.HasSize() {
			t.Errorf("%s: traits %+v for family %d", s.Name, tr, s.Family)
		}
		if wantCost := (s.Family == Collective || s.Family == Sync) && s.Name != "Reduce_local"; (tr.Cost != nil) != wantCost {
			t.Errorf("%s: cost model %v, want one: %v", s.Name, tr.Cost != nil, wantCost)
		}
	}
	if refs != 1 {
		t.Errorf("%d reference benchmarks, want 1", refs)
	}
}

// IMB-NBC's default list in run order; each has a _pure twin outside it.
var nbcDefault = []string{"Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter", "Iscatterv",
	"Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce", "Ibarrier"}

// mpi4Name is IMB-MPI4's name of an IMB-NBC benchmark (Ibcast: Bcast_persist).
func mpi4Name(n string) string { return strings.ToUpper(n[1:2]) + n[2:] + "_persist" }

// TestRegistryNBC: IMB-NBC's and IMB-MPI4's registries, each a default
// list in IMB's order with a _pure twin for every benchmark.
func TestRegistryNBC(t *testing.T) {
	for _, suite := range []string{SuiteNBC, SuiteMPI4} {
		name := func(n string) string { return n }
		if suite == SuiteMPI4 {
			name = mpi4Name
		}
		var want []string
		for _, n := range nbcDefault {
			if suite != SuiteMPI4 || n != "Iallgather" { // IMB-MPI4 2021.11 leaves it out
				want = append(want, name(n))
			}
		}
		if got := DefaultNames(suite); !reflect.DeepEqual(got, want) {
			t.Errorf("%s default list\n got %v\nwant %v", suite, got, want)
		}
		if n := len(Specs(suite)); n != 2*len(nbcDefault) {
			t.Errorf("%s: %d benchmarks registered, want %d", suite, n, 2*len(nbcDefault))
		}
		for _, n := range nbcDefault {
			checkTwins(t, suite, name(n), n)
		}
	}
}

func checkTwins(t *testing.T, suite, n, nbc string) {
	t.Helper()
	over, ok1 := Lookup(suite, strings.ToLower(n))
	pure, ok2 := Lookup(suite, strings.ToUpper(n+"_pure"))
	if !ok1 || !ok2 {
		t.Fatalf("%s: lookup %v %v", n, ok1, ok2)
	}
	if _, inMPI1 := Lookup(Suite, n); inMPI1 {
		t.Errorf("%s is in IMB-MPI1's registry", n)
	}
	if over.Persist != (suite == SuiteMPI4) || pure.Persist != over.Persist {
		t.Errorf("%s: persist %v/%v", n, over.Persist, pure.Persist)
	}
	if over.Kernel != kernel.IMBNBC || pure.Kernel != kernel.IMBNBC || over.NBCOp != pure.NBCOp {
		t.Errorf("%s: kernels %v %v, ops %v %v", n, over.Kernel, pure.Kernel, over.NBCOp, pure.NBCOp)
	}
	if !over.Overlap || pure.Overlap || over.Default != (n != "Allgather_persist") || pure.Default {
		t.Errorf("%s: overlap %v/%v, default %v/%v", n, over.Overlap, pure.Overlap, over.Default, pure.Default)
	}
	// The blocking twin's collective name, cost model only on the pure one
	blocking := strings.ToLower(strings.TrimPrefix(nbc, "I"))
	if tr := pure.Traits(); tr.Collective != blocking || tr.Cost == nil || over.Traits().Cost != nil {
		t.Errorf("%s: collective %q, cost models %v/%v", n, tr.Collective, tr.Cost != nil, over.Traits().Cost != nil)
	}
	if sync := nbc == "Ibarrier"; over.HasSize() == sync || pure.HasSize() == sync {
		t.Errorf("%s: sizes %v/%v", n, over.HasSize(), pure.HasSize())
	}
	if over.Reduction != strings.Contains(nbc, "reduce") {
		t.Errorf("%s: reduction %v", n, over.Reduction)
	}
	snd, rcv := over.Buffers(1000, 4)
	if nbc != "Ibarrier" && (snd < 1000 || rcv < 1000) {
		t.Errorf("%s: buffers %d/%d for 1000 B", n, snd, rcv)
	}
}

// TestRegistryOneSided: IMB-EXT's and IMB-RMA's registries, each its
// default list in IMB's order and its other benchmarks; IMB-RMA's modes
// non-aggregate first, its one-element and batched benchmarks, its sizes.
func TestRegistryOneSided(t *testing.T) {
	for _, c := range []struct {
		suite  string
		def    []string
		others []string
	}{
		{SuiteEXT, []string{"Window", "Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"}, nil},
		{SuiteRMA, []string{"Unidir_put", "Bidir_put", "Unidir_get", "Bidir_get", "Put_local", "Put_all_local",
			"One_put_all", "All_put_all", "One_get_all", "All_get_all", "Exchange_put", "Exchange_get", "Accumulate",
			"Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Truly_passive_put"},
			[]string{"Get_all_local", "Get_local"}},
	} {
		if got := DefaultNames(c.suite); !reflect.DeepEqual(got, c.def) {
			t.Errorf("%s default list\n got %v\nwant %v", c.suite, got, c.def)
		}
		if n := len(Specs(c.suite)); n != len(c.def)+len(c.others) {
			t.Errorf("%s: %d benchmarks, want %d", c.suite, n, len(c.def)+len(c.others))
		}
		for _, n := range c.others {
			if s, ok := Lookup(c.suite, strings.ToUpper(n)); !ok || s.Default {
				t.Errorf("%s: %s %v, default %v", c.suite, n, ok, ok && s.Default)
			}
		}
	}
	o := DefaultOptions()
	for _, s := range Specs(SuiteRMA) {
		modes := s.RunModes()
		if s.Modes != (len(modes) == 2) || (s.Modes && (modes[0] != result.ModeNonAggregate || o.WarmupMode(s, modes[1]) != modes[0])) {
			t.Errorf("%s: modes %v", s.Name, modes)
		}
		sizes := o.SizesOf(s)
		if s.OneElement != (len(sizes) == 1 && sizes[0] == 4) {
			t.Errorf("%s: sizes %v", s.Name, sizes)
		}
		// the all-targets loops have one flush for all repetitions
		if all := strings.Contains(s.Name, "_all"); all != s.Batched || s.PerRepetition("") == all {
			t.Errorf("%s: batched %v", s.Name, s.Batched)
		}
		if s.Passive != (s.Name == "Truly_passive_put") || (s.BWScale > 0) == (s.Family == Collective || s.Passive) {
			t.Errorf("%s: passive %v, bandwidth factor %g", s.Name, s.Passive, s.BWScale)
		}
		if snd, rcv := s.Buffers(1000, 4); snd < 1000 || rcv < 1000 {
			t.Errorf("%s: buffers %d/%d for 1000 B", s.Name, snd, rcv)
		}
	}
	// -aggregate_mode keeps one of two modes, and IMB-RMA's warm-up runs
	// in the one left (IMB's RUN_MODES[0])
	o.AggregateMode = result.ModeAggregate
	for name, want := range map[string]int{"Unidir_put": 1, "One_put_all": 1} {
		s, _ := Lookup(SuiteRMA, name)
		if got := o.RunModes(s); len(got) != want || (s.Modes && (got[0] != result.ModeAggregate || o.WarmupMode(s, got[0]) != got[0])) {
			t.Errorf("%s with -aggregate_mode aggregate: modes %v", name, got)
		}
	}
	// Fetch_and_op's one size is capped by -msglog as IMB caps it
	o.MsgLogMax = 1
	if s, _ := Lookup(SuiteRMA, "Fetch_and_op"); !reflect.DeepEqual(o.SizesOf(s), []int64{0}) {
		t.Errorf("Fetch_and_op at -msglog 1: sizes %v, want [0]", o.SizesOf(s))
	}
}

// TestRegistryIO: IMB-IO's 37 benchmarks in its default list's order
// (IMB_bnames_io.h's DEFC), their modes, process counts and file lengths.
func TestRegistryIO(t *testing.T) {
	want := []string{"S_Write_Indv", "S_IWrite_Indv", "S_Write_Expl", "S_IWrite_Expl", "P_Write_Indv", "P_IWrite_Indv",
		"P_Write_Shared", "P_IWrite_Shared", "P_Write_Priv", "P_IWrite_Priv", "P_Write_Expl", "P_IWrite_Expl",
		"C_Write_Indv", "C_IWrite_Indv", "C_Write_Shared", "C_IWrite_Shared", "C_Write_Expl", "C_IWrite_Expl",
		"S_Read_Indv", "S_IRead_Indv", "S_Read_Expl", "S_IRead_Expl", "P_Read_Indv", "P_IRead_Indv", "P_Read_Shared",
		"P_IRead_Shared", "P_Read_Priv", "P_IRead_Priv", "P_Read_Expl", "P_IRead_Expl", "C_Read_Indv", "C_IRead_Indv",
		"C_Read_Shared", "C_IRead_Shared", "C_Read_Expl", "C_IRead_Expl", "Open_Close"}
	if got := DefaultNames(SuiteIO); !reflect.DeepEqual(got, want) {
		t.Fatalf("IMB-IO's list:\n got %v\nwant %v", got, want)
	}
	o := DefaultOptions()
	o.NPMin = 2
	cases := []struct {
		name  string
		modes []string
		nps   []int // at 4 ranks, -npmin 2
	}{
		{"P_Write_Indv", []string{"aggregate", "non-aggregate"}, []int{2, 4}},
		{"P_IWrite_Indv", []string{"aggregate"}, []int{2, 4}},
		{"C_Read_Expl", []string{"aggregate"}, []int{2, 4}},
		{"S_Write_Expl", []string{"aggregate", "non-aggregate"}, []int{1}}, // one process, whatever -npmin says
		{"S_IRead_Indv", []string{"aggregate"}, []int{1}},
		{"Open_Close", []string{""}, []int{2, 4}},
	}
	for _, c := range cases {
		s, ok := Lookup(SuiteIO, c.name)
		if !ok {
			t.Fatalf("no %s", c.name)
		}
		if got := o.RunModes(s); !reflect.DeepEqual(got, c.modes) {
			t.Errorf("%s: modes %q, want %q", c.name, got, c.modes)
		}
		var nps []int
		o.Steps([]*Spec{s}, 4, func(_ *Spec, np int, ok, _ bool) error {
			if ok {
				nps = append(nps, np)
			}
			return nil
		})
		if !reflect.DeepEqual(nps, c.nps) {
			t.Errorf("%s: process counts %v, want %v", c.name, nps, c.nps)
		}
		if nb := strings.Contains(c.name, "_IWrite") || strings.Contains(c.name, "_IRead"); s.Overlap != nb || (s.BWScale > 0) != (c.name != "Open_Close") {
			t.Errorf("%s: overlap %v, bandwidth %g", c.name, s.Overlap, s.BWScale)
		}
	}
	// -aggregate_mode keeps one of the blocking writes' two modes only
	o.AggregateMode = "non-aggregate"
	for name, modes := range map[string][]string{"C_Write_Shared": {"non-aggregate"}, "C_Read_Shared": {"aggregate"}} {
		if s, _ := Lookup(SuiteIO, name); !reflect.DeepEqual(o.RunModes(s), modes) {
			t.Errorf("-aggregate_mode non_aggregate: %s runs %q", name, o.RunModes(s))
		}
	}
	// Open_Close counts msgs_nonaggr repetitions; the estimate's first
	// guess takes IMB-IO's MSGSPERSAMPLE, 50
	oc, _ := Lookup(SuiteIO, "Open_Close")
	d := DefaultOptions()
	if n, _ := d.InitialRepsIn("", oc, 0, 2); n != 100 {
		t.Errorf("Open_Close: %d repetitions, want 100", n)
	}
	if got := oc.RoughRepsOf(1e-6); got != 50 {
		t.Errorf("IMB-IO's rough estimate %d, want 50", got)
	}
}

// TestIOFile: IMB_init_file's lengths and names.
func TestIOFile(t *testing.T) {
	pw, _ := Lookup(SuiteIO, "P_Write_Indv")
	pp, _ := Lookup(SuiteIO, "P_Write_Priv")
	sw, _ := Lookup(SuiteIO, "S_Write_Indv")
	cases := []struct {
		spec   *Spec
		msglog int
		sizes  []int64
		procs  int
		want   int64
	}{
		{pw, 22, nil, 2, 40 << 20},               // 4 MiB records, 10 of them fit the 40 MiB volume
		{pw, 4, nil, 2, 16 * 50},                 // at most 50 records
		{pw, 26, nil, 2, 64 << 20},               // one record beyond the volume
		{pw, 4, []int64{10, 3000}, 2, 3000 * 50}, // the largest listed size
		{pp, 4, nil, 2, 16 * 50 / 2},             // a file per rank: its share
		{pp, 4, nil, 3, (800+2)/3 + 4*50},        // 16 bytes over 3: room for the rounding
		{sw, 4, nil, 1, 800},                     // S_: one process
	}
	for i, c := range cases {
		o := DefaultOptions()
		o.MsgLogMax, o.Sizes = c.msglog, c.sizes
		if got := o.IOFileBytes(c.spec, c.procs); got != c.want {
			t.Errorf("case %d (%s): %d bytes, want %d", i, c.spec.Name, got, c.want)
		}
	}
	o := DefaultOptions()
	if got := o.IOFileName("d", pp, 0, 3); got != "d/IMB_out_3" {
		t.Errorf("Priv file %s", got)
	}
	o.Multi = 0
	if got := o.IOFileName("d", pw, 1, 3); got != "d/IMB_out_g1" {
		t.Errorf("-multi file %s", got)
	}
	if pw.IOProcs(4) != 4 || sw.IOProcs(4) != 1 {
		t.Errorf("I/O processes %d, %d", pw.IOProcs(4), sw.IOProcs(4))
	}
}
