// Package imbrun is the engine of IMB's suites that share IMB-MPI1's
// driver (IMB-MPI1, -NBC, -MPI4, -EXT, -RMA, -IO): it walks the benchmarks
// of package imb over process counts and message sizes with IMB's semantics,
// runs their C kernels through package mpi (one cgo call per timed batch),
// gathers every rank's times and samples to rank 0 and hands the records
// to a Sink.
//
// The pipeline, in steps:
//
//  1. package imb registers every benchmark's Spec from its suite's table
//     (mpi1_table.go, ...) or, for IMB-NBC and IMB-MPI4, its collective's
//     file;
//  2. the command (gomb imb, imb-ext, ...) parses IMB's flags into
//     imb.Options;
//  3. Engine.Run walks benchmarks × process counts × sizes, calls the C
//     kernel of the Spec through mpi.Job (one cgo call per batch), gathers
//     every rank's time and raw samples to rank 0;
//  4. rank 0 turns them into result.Result records and hands them to a
//     Sink (JSON Lines, IMB text table). Benchmarks never print.
package imbrun

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Engine runs benchmarks with IMB-MPI1's semantics on MPI_COMM_WORLD.
type Engine struct {
	Opt      imb.Options
	World    mpi.Comm
	Hosts    []string // host of every world rank
	RunID    string
	Sink     imb.Sink     // rank 0
	Progress imb.Progress // rank 0, optional
	// Watch is told, on every rank, what runs next (a watchdog); optional.
	Watch func(watchdog.Phase)
	// Fault is what GOMB_FAULT injects (tests, explain's corpus): a rank
	// held back (delay) or stuck (hang); nil: none.
	Fault *bench.Fault
	// After, when set, is called on every rank when benchmark s has run
	// at every process count, repeat 0 the first time and k its k-th
	// re-run; it returns whether to run s again (every rank must answer
	// the same: gomb imb -confirm decides on rank 0 and broadcasts).
	After func(s *imb.Spec, repeat int) (again bool, err error)
	// Contain, when set, is asked after each benchmark how its end goes
	// on (bench.Contain: an MPI error every rank met ends that benchmark
	// only); without it the first error ends the run.
	Contain bench.Contain
}

// Run measures the given benchmarks in order. It returns at the first MPI
// error (past those Contain lets go); results measured before it have
// been handed to the Sink.
func (e *Engine) Run(specs []*imb.Spec) (imb.Summary, error) {
	var sum imb.Summary
	job, err := mpi.NewJob()
	if err != nil {
		return sum, err
	}
	defer job.Free()
	job.SetBuffers(e.Opt.Buffers)
	if e.Opt.Buffers == kernel.BuffersIMB {
		if err := mpi.IMBHeapStart(e.World.Size()); err != nil {
			return sum, err
		}
	}
	if err := e.calibrate(specs); err != nil {
		return sum, err
	}
	// Each benchmark's communicator lives on after its table, as in
	// IMB-MPI1 (every benchmark holds its own copy of IMB's comm_info and
	// frees only its own previous communicator, when its process count
	// changes), and with IMB's buffers gets IMB's other calls on it
	// (IMBComm). The MPI allocates a communicator's structures on the C
	// heap, and where the next benchmark's buffers and the MPI's per-call
	// temporaries land depends on them: with each communicator freed after
	// its table, Open MPI's Reduce_scatter_block at 64 KiB after eight
	// other benchmarks trimmed and regrew the heap in every call (2.5 times
	// IMB's time).
	comms := map[*imb.Spec]mpi.Comm{}
	defer func() {
		for _, c := range comms {
			c.Free()
		}
	}()
	step := func(s *imb.Spec, np int, ok, skip bool) error {
		if !ok {
			if !skip && e.World.Rank() == 0 {
				return e.Sink.Invalid(s, np)
			}
			return nil
		}
		if c, held := comms[s]; held {
			c.Free()
			delete(comms, s)
		}
		comm, err := e.split(np)
		if err != nil {
			return fmt.Errorf("%s, %d processes: %w", s.Name, np, err)
		}
		comms[s] = comm
		if e.Opt.Buffers == kernel.BuffersIMB {
			if err := mpi.IMBComm(comm); err != nil {
				return fmt.Errorf("%s, %d processes: %w", s.Name, np, err)
			}
		}
		if err := e.runNP(job, s, comm, np, &sum); err != nil {
			return fmt.Errorf("%s, %d processes: %w", s.Name, np, err)
		}
		return nil
	}
	for _, s := range specs {
		err := e.benchmark(s, step)
		if e.Contain != nil {
			err = e.Contain(s.Name, err)
		}
		if err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// benchmark runs s at every process count (step runs one), and again
// while After asks.
func (e *Engine) benchmark(s *imb.Spec, step func(s *imb.Spec, np int, ok, skip bool) error) error {
	for repeat := 0; ; repeat++ {
		if err := e.Opt.Steps([]*imb.Spec{s}, e.World.Size(), step); err != nil {
			return err
		}
		if e.After == nil {
			return nil
		}
		again, err := e.After(s, repeat)
		if err != nil || !again {
			return err
		}
	}
}

// calibrate is IMB-IO's CPU exploit calibration, on every rank before the
// first table when the run has a non-blocking I/O benchmark; rank 0's sink
// shows its MFlops.
func (e *Engine) calibrate(specs []*imb.Spec) error {
	for _, s := range specs {
		if transfers[s.Kernel].calibrate && s.Overlap {
			mflops, _ := mpi.IOCalibrate()
			if e.World.Rank() == 0 {
				return e.Sink.Exploit(mflops)
			}
			return nil
		}
	}
	return nil
}

// groupOf returns this rank's group (color) for np active processes and
// the number of groups, as IMB's IMB_set_communicator does.
func (e *Engine) groupOf(key, np, world int) (color, ngroups int) {
	if e.Opt.Multi >= 0 {
		ngroups = world / np
		if key/np < ngroups {
			return key / np, ngroups
		}
		return -1, ngroups
	}
	if key < np {
		return 0, 1
	}
	return -1, 1
}

// measured is one rank's timed repetitions of a size.
type measured struct {
	elapsed float64   // seconds over all n repetitions; negative: not a timing rank
	n       int       // repetitions
	samples []float64 // per repetition, seconds (-iter_policy precision only; else in the job)
}

// precisionFirstBatch is the first batch of -iter_policy precision: enough
// repetitions for a median's interval (8 at least), few enough that a
// size that is precise at once stops early.
const precisionFirstBatch = 32

// measure runs the timed repetitions of a size: n of them in one batch,
// as IMB does; or, with -iter_policy precision, batches that double the
// count until the 95% interval of every timing rank's median repetition
// time is within -precision, n (IMB's count for the size) is reached, or
// the size has taken -time seconds.
func (e *Engine) measure(job *mpi.Job, comm mpi.Comm, n int) (measured, error) {
	o := &e.Opt
	if o.Policy != imb.PolicyPrecision {
		el, err := job.Run(n, !o.NoSamples)
		return measured{elapsed: el, n: n}, err
	}
	m := measured{}
	start := mpi.Wtime()
	for batch := min(n, precisionFirstBatch); batch > 0; batch = min(m.n, n-m.n) {
		el, err := job.Run(batch, true)
		if err != nil {
			return m, err
		}
		m.n += batch
		p := 0.0
		if el < 0 {
			m.elapsed = -1
		} else {
			m.elapsed += el
			m.samples = append(m.samples, job.Samples()...)
			p = stats.MedianPrecision(m.samples) // +Inf below 8 samples
			if math.IsNaN(p) {
				p = 0 // a median of 0 (below the clock's tick) is as precise as it gets
			}
		}
		if p, err = comm.MaxFloat64(p); err != nil {
			return m, err
		}
		if p <= o.Precision || mpi.Wtime()-start > o.TimeS {
			break
		}
	}
	return m, nil
}

// The slots gomb imb appends after bench's: IMB-NBC's pure time and
// exploit time per repetition (seconds), beside SlotTime's t_ovrl.
const (
	slotPure = bench.NSlots + iota
	slotComp
	nSlots
)

// twoTimes: the benchmark times two loops, the pure one (slotPure) and
// the overlapped one (SlotTime; IMB-NBC's overlap benchmarks also the
// exploit, slotComp): IMB-NBC's, IMB-MPI4's, IMB-RMA's Truly_passive_put.
func twoTimes(s *imb.Spec) bool { return s.Overlap || s.Passive }

// gatherMine gathers every rank's values for a size to rank 0, nSlots per
// rank. Without -check only the times travel, as in IMB's output: one
// double per rank, three for the benchmarks with two loops (t_ovrl,
// t_pure, t_CPU); rank 0 fills in the rest (the count it ran, no
// defects).
func (e *Engine) gatherMine(mine []float64, check, overlap bool) ([]float64, error) {
	if check {
		return e.World.GatherFloat64s(mine, 0)
	}
	times := []float64{mine[bench.SlotTime]}
	if overlap {
		times = append(times, mine[slotPure], mine[slotComp])
	}
	t, err := e.World.GatherFloat64s(times, 0)
	if err != nil || t == nil {
		return nil, err
	}
	k := len(times)
	vals := make([]float64, nSlots*len(t)/k)
	for w := 0; w < len(t)/k; w++ {
		slots := bench.NewSlots(nSlots, int(mine[bench.SlotReps]))
		slots[bench.SlotTime] = t[w*k]
		if overlap {
			slots[slotPure], slots[slotComp] = t[w*k+1], t[w*k+2]
		}
		copy(vals[w*nSlots:], slots)
	}
	return vals, nil
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// estimate is IMB's dynamic repetition count for one size: one repetition,
// then about a second's worth, then as many as fit in -time, never more
// than the volume cap or the previous size allows.
func (e *Engine) estimate(job *mpi.Job, comm mpi.Comm, s *imb.Spec, selected, prev int, size int64,
	listSizes []int64, listReps []int) (int, error) {
	timeOf := func(n int) (float64, error) {
		el, err := job.Run(n, false)
		if err != nil {
			return 0, err
		}
		t := el / float64(n)
		if twoTimes(s) {
			t = job.NBCTimes().Pure // IMB estimates from time[0], t_pure
		}
		if h := transfers[s.Kernel].estimated; h != nil {
			if err := h(job); err != nil {
				return 0, err
			}
		}
		return comm.MaxFloat64(t)
	}
	t, err := timeOf(1)
	if err != nil {
		return 0, err
	}
	rough, err := comm.MaxInt(s.RoughRepsOf(t))
	if err != nil {
		return 0, err
	}
	if n := min(selected, rough); n > 1 {
		if t, err = timeOf(n); err != nil {
			return 0, err
		}
	}
	tSample := imb.TimeReps(t, e.Opt.TimeS, selected)
	var n int
	switch {
	case s.Family == imb.Sync:
		n = min(selected, tSample)
	case e.Opt.Sizes != nil:
		n = min(selected, imb.ListReps(listSizes, listReps, size, tSample))
	default:
		n = min(selected, min(prev, tSample))
	}
	return comm.BcastInt(n, 0)
}

// rows turns what rank 0 gathered for one size into result records: one
// over all groups, or one per group with -multi 1.
func (e *Engine) rows(t *imb.Table, base *result.Result, vals []float64, samples [][]float64) []*result.Result {
	if t.Multi == 1 {
		out := make([]*result.Result, len(t.Groups))
		for g, ranks := range t.Groups {
			r := *base
			r.Group = g
			out[g] = e.row(t, &r, ranks, vals, samples)
		}
		return out
	}
	var ranks []int
	for _, g := range t.Groups {
		ranks = append(ranks, g...)
	}
	r := e.row(t, base, ranks, vals, samples)
	if len(t.Groups) > 1 {
		r.Locality = e.groupsLocality(t.Groups)
	}
	return []*result.Result{r}
}

// failed is a failure row (time-out, out-of-mem, int-overflow) as
// records: with -multi 1 one per group, as the text prints it and as the
// rows it stands for are; else the one row. table is nil off rank 0.
func failed(t *imb.Table, row *result.Result) []*result.Result {
	if t == nil || t.Multi != 1 {
		return []*result.Result{row}
	}
	out := make([]*result.Result, len(t.Groups))
	for g := range t.Groups {
		r := *row
		r.Group = g
		out[g] = &r
	}
	return out
}

// groupsLocality classifies a row over several groups by the groups, each
// of which communicates only within itself: two intra-node pairs side by
// side are intra-node, though the row spans two hosts.
func (e *Engine) groupsLocality(groups [][]int) string {
	var locs []string
	for _, g := range groups {
		var hosts []string
		for _, w := range g {
			if w < len(e.Hosts) {
				hosts = append(hosts, e.Hosts[w])
			}
		}
		if len(hosts) > 0 {
			loc, _ := result.Locality(hosts)
			locs = append(locs, loc)
		}
	}
	return result.JoinLocality(locs)
}

func (e *Engine) row(t *imb.Table, r *result.Result, ranks []int, vals []float64, samples [][]float64) *result.Result {
	s := t.Spec
	scale := 1e6 * s.TimeScale
	a := bench.Assembly{Stride: nSlots, Hosts: e.Hosts, Samples: samples, Scale: scale, Check: t.Check,
		MeanUS: func(v []float64) float64 { return v[bench.SlotTime] * scale }}
	if !e.Opt.AllSamples {
		a.Bound, a.Seed = bench.AutoSampleRanks, seedOf(e.RunID)
	}
	a.Assemble(r, vals, ranks)
	if s.Overlap {
		overlap := overlapOf
		if h := transfers[s.Kernel].overlap; h != nil {
			overlap = h
		}
		r.NBC = overlap(ranks, vals, scale)
	}
	if s.Passive {
		r.NBC = maxTimesOf(ranks, vals, scale)
	}
	if s.BWScale > 0 && r.TMaxUS > 0 {
		if s.Family == imb.MsgRate {
			peers := float64(t.NP / 2)
			r.MsgPerSec = s.BWScale * 1e6 * float64(e.Opt.Window) * peers / r.TMaxUS
			r.MBps = 1e-6 * r.MsgPerSec * float64(r.Bytes)
		} else {
			r.MBps = s.BWScale * float64(r.Bytes) / r.TMaxUS
		}
	}
	return r
}

// overlapOf is IMB-NBC's row: the times of the rank whose t_ovrl is the
// longest (the first such, in communicator order) and IMB's overlap,
// 100 * max(0, min(1, (t_pure + t_CPU - t_ovrl) / max(t_pure, t_CPU))).
func overlapOf(ranks []int, vals []float64, scale float64) *result.NBC {
	at := -1
	for _, w := range ranks {
		if v := vals[w*nSlots+bench.SlotTime]; v >= 0 && (at < 0 || v > vals[at*nSlots+bench.SlotTime]) {
			at = w
		}
	}
	if at < 0 {
		return nil
	}
	v := vals[at*nSlots:]
	ovrl, pure, comp := v[bench.SlotTime]*scale, v[slotPure]*scale, v[slotComp]*scale
	pct := 0.0
	if d := max(pure, comp); d > 0 {
		pct = 100 * max(0, min(1, (pure+comp-ovrl)/d))
	}
	return &result.NBC{OverallUS: ovrl, PureUS: pure, ComputeUS: comp, OverlapPct: pct}
}

// ioOverlapOf is the row of IMB-IO's non-blocking benchmarks: the largest
// t_pure and the largest t_ovrl over the ranks (each its own rank's),
// t_CPU the exploit's calibrated time (IMB's tCPU, rank 0's), and IMB-IO's
// overlap, 100 * max(0, min(1, (t_pure + t_CPU - t_ovrl) / min(t_pure,
// t_CPU))).
func ioOverlapOf(ranks []int, vals []float64, scale float64) *result.NBC {
	n := maxTimesOf(ranks, vals, scale)
	n.ComputeUS = vals[slotComp] * scale
	if d := min(n.PureUS, n.ComputeUS); d > 0 {
		n.OverlapPct = 100 * max(0, min(1, (n.PureUS+n.ComputeUS-n.OverallUS)/d))
	}
	return n
}

// maxTimesOf is the largest t_pure and the largest t_ovrl over the ranks
// that time: Truly_passive_put's row (the origin's, the only rank that
// times) and the start of IMB-IO's.
func maxTimesOf(ranks []int, vals []float64, scale float64) *result.NBC {
	n := &result.NBC{}
	for _, w := range ranks {
		v := vals[w*nSlots:]
		if v[bench.SlotTime] >= 0 {
			n.OverallUS = max(n.OverallUS, v[bench.SlotTime]*scale)
			n.PureUS = max(n.PureUS, v[slotPure]*scale)
		}
	}
	return n
}

func (e *Engine) emit(t *imb.Table, rows []*result.Result, sum *imb.Summary) error {
	if e.World.Rank() != 0 {
		return nil
	}
	for _, r := range rows {
		if r.Time.IsZero() {
			r.Time = time.Now()
		}
		if r.Ranks == nil {
			r.Ranks, r.RankMeanUS, r.SamplesUS = []int{}, []float64{}, [][]float64{}
		}
		if r.Status == "" {
			r.Status = result.StatusOK
		}
		if r.Check != nil && !r.Check.Passed {
			sum.CheckFailures++
		}
		sum.Results++
		if err := e.Sink.Result(r); err != nil {
			return err
		}
	}
	return nil
}

// Usable says why this MPI library cannot run the benchmarks with these
// options (nil: it can): a reduction type it does not sum; -iter_policy
// precision for an IMB-NBC overlap benchmark (its batches would each
// calibrate the CPU exploit anew); IMB-MPI4's persistent collectives
// where the library has none; an element type it lacks (float16 and
// bfloat16 are MPIX_ types some libraries have).
func Usable(specs []*imb.Spec, o imb.Options) error {
	for _, s := range specs {
		if s.Persist && !mpi.PersistentCollectives() {
			return fmt.Errorf("%s: this MPI library lacks MPI-4 persistent collectives (MPI_Bcast_init and the like; Open MPI 4 has them as MPIX_ in its pcollreq extension)", s.Name)
		}
		if s.Overlap && o.Policy == imb.PolicyPrecision {
			return fmt.Errorf("-iter_policy precision: not for %s, which overlaps with IMB's CPU exploit (its _pure twin takes it)", s.Name)
		}
		if o.Policy == imb.PolicyPrecision {
			for _, m := range o.RunModes(s) {
				if !s.PerRepetition(m) {
					return fmt.Errorf("-iter_policy precision: not for %s, whose loop has no time per repetition (one synchronisation completes them all)", s.Name)
				}
			}
			if s.Passive {
				return fmt.Errorf("-iter_policy precision: not for %s, whose second loop is calibrated on its first", s.Name)
			}
		}
		flag, t := "-data_type", o.Type
		if s.Reduction {
			flag, t = "-red_data_type", o.RedType
		}
		switch {
		case !mpi.DatatypeUsable(t, false):
			return fmt.Errorf("%s %s: this MPI library has no %s", flag, t.Word(), t)
		case s.Reduction && (t == kernel.Float16 || t == kernel.BFloat16):
			return fmt.Errorf("%s %s: gomb does not reduce 16-bit floats (MPICH 4.0 aborts the job on MPI_SUM of %s instead of returning an error); -data_type %s works for the transfers",
				flag, t.Word(), t, t.Word())
		case s.Reduction && !mpi.DatatypeUsable(t, true):
			return fmt.Errorf("%s %s: this MPI library does not reduce that type with MPI_SUM", flag, t.Word())
		}
	}
	return nil
}

// seedOf makes -samples auto's choice of ranks a function of the run.
func seedOf(runID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(runID))
	return h.Sum64()
}
