package imbrun

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sort"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/host"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// sweep is one benchmark at one process count: the sizes of one table,
// and what every size reads or carries to the next.
type sweep struct {
	s       *imb.Spec
	np      int
	ngroups int
	comm    mpi.Comm // this rank's group; null where it sits out
	job     *mpi.Job
	active  bool       // this rank is in a group
	table   *imb.Table // rank 0's; nil elsewhere
	ranks   []int      // the active world ranks, known on rank 0
	spec    kernel.Params
	mode    string // IMB's run mode of the table ("" for none)
	unit    int64
	start   float64 // when the first size began (for IMB's time limit)
	sum     *imb.Summary

	nic []result.NICTraffic // -nic: what this rank's host's interfaces carried in the size's timed loop

	// the repetition policy's memory of earlier sizes
	prev      int
	listSizes []int64
	listReps  []int
}

// split makes the communicator of this rank's group for np active
// processes (null where it sits out), as IMB_set_communicator does.
func (e *Engine) split(np int) (mpi.Comm, error) {
	key := imb.MapKey(e.World.Rank(), e.Opt.MapP, e.Opt.MapQ)
	color, _ := e.groupOf(key, np, e.World.Size())
	return e.World.Split(color, key)
}

// runNP runs benchmark s with np active processes over all its sizes, on
// comm, the communicator split for them: a table each of its run modes.
func (e *Engine) runNP(job *mpi.Job, s *imb.Spec, comm mpi.Comm, np int, sum *imb.Summary) error {
	o := &e.Opt
	rank, world := e.World.Rank(), e.World.Size()
	key := imb.MapKey(rank, o.MapP, o.MapQ)
	color, ngroups := e.groupOf(key, np, world)
	if err := job.Bind(comm); err != nil {
		return err
	}
	for _, mode := range o.RunModes(s) {
		if h := transfers[s.Kernel].table; h != nil { // for every process count and mode
			if err := h(e, job, s, color, np); err != nil {
				return err
			}
		}
		w := &sweep{s: s, np: np, ngroups: ngroups, comm: comm, job: job, active: !comm.Null(), unit: o.Unit(s),
			sum: sum, prev: o.MsgsPerSample, mode: mode,
			spec: kernel.Params{Kernel: s.Kernel, Type: o.ElemType(s), Sync: o.Sync, RootShift: o.RootShift,
				IMBBarrier: o.IMBBarrier, Source: s.Source, Window: o.Window, NBCOp: s.NBCOp, Overlap: s.Overlap,
				Persist: s.Persist, EXTOp: s.EXTOp, IMBRMAOp: s.IMBRMAOp, Aggregate: mode == result.ModeAggregate, IO: s.IO}}
		if err := e.runTable(w, color); err != nil {
			return err
		}
	}
	return nil
}

// runTable runs one table: the sizes of a benchmark at a process count in
// one run mode.
func (e *Engine) runTable(w *sweep, color int) error {
	o, s, rank := &e.Opt, w.s, e.World.Rank()
	if err := e.openTable(w, color); err != nil {
		return err
	}
	w.start = mpi.Wtime()
	sizes := o.SizesOf(s)
	for idx, size := range sizes {
		done, err := e.size(w, size)
		if err != nil || done {
			return err
		}
		if rank == 0 && e.Progress != nil {
			e.Progress.Size(s, w.np, size, idx+1, len(sizes))
		}
	}
	// the table's garbage is collected size by size; its pages go back
	// to the system before the next table (rank 0's records and gathered
	// samples would otherwise stay resident through the sweep)
	debug.FreeOSMemory()
	return nil
}

// openTable gathers which world rank sits where in which group and hands
// rank 0's table to the sink.
func (e *Engine) openTable(w *sweep, color int) error {
	o := &e.Opt
	world := e.World.Size()
	layout, err := e.World.GatherInts([]int{color, w.comm.Rank()}, 0)
	if err != nil {
		return err
	}
	if e.World.Rank() != 0 {
		return nil
	}
	t := &imb.Table{Spec: w.s, NP: w.np, Multi: o.Multi, World: world, MapP: o.MapP, MapQ: o.MapQ, Mode: w.mode,
		Check: o.Check, Precision: o.Policy == imb.PolicyPrecision, Groups: make([][]int, w.ngroups), Idle: world - w.ngroups*w.np}
	for g := range t.Groups {
		t.Groups[g] = make([]int, w.np)
	}
	for r := 0; r < world; r++ {
		if c, cr := layout[2*r], layout[2*r+1]; c >= 0 {
			t.Groups[c][cr] = r
		}
	}
	for _, g := range t.Groups {
		w.ranks = append(w.ranks, g...)
	}
	sort.Ints(w.ranks)
	w.table = t
	return e.Sink.Table(t)
}

// size measures one message size: a failure row where the size cannot
// run, else the repetitions, the timed loop and the row. done: the time
// limit is over and the table ends here.
func (e *Engine) size(w *sweep, size int64) (done bool, err error) {
	o := &e.Opt
	if e.Watch != nil {
		e.Watch(watchdog.Phase{Bench: w.s.Name, NP: w.np, Bytes: size, Ranks: w.ranks})
	}
	if e.Fault.MPIErrorAt(w.s.Name, size, e.World.Rank()) {
		return false, mpi.InjectError(e.World)
	}
	n0, dynamic := o.InitialRepsIn(w.mode, w.s, size, w.np)
	lay := o.Layout(w.s, size, w.np, n0)
	count := size / w.unit
	row := &result.Result{Suite: w.s.Suite, Benchmark: w.s.Name, Mode: w.mode, NP: w.np, Groups: w.ngroups, Group: -1,
		Bytes: size, RunID: e.RunID}
	// IMB 2021 ends a benchmark's table at its first out-of-mem or
	// int-overflow row, as at a time-out.
	if need := lay.NeededGB(); need > o.MemGB {
		row.Status, row.NeededGB = result.StatusOutOfMem, need
		return true, e.emit(w.table, failed(w.table, row), w.sum)
	}
	large, reason := intLimit(w.s, size, w.np, w.unit)
	if reason != "" {
		row.Status, row.Reason = result.StatusIntOverflow, reason
		return true, e.emit(w.table, failed(w.table, row), w.sum)
	}
	w.spec.Large = large
	w.job.SetDelay(e.Fault.DelayAt(w.s.Name, size, e.World.Rank()))
	n, err := e.repetitions(w, size, int(count), lay, n0, dynamic)
	if err != nil {
		return false, err
	}
	late, err := e.World.MaxInt(pick(mpi.Wtime()-w.start > o.TimeLimit(), 1, 0))
	if err != nil {
		return false, err
	}
	if late != 0 {
		row.Status = result.StatusTimeOut
		return true, e.emit(w.table, failed(w.table, row), w.sum)
	}

	sizeStart := mpi.Wtime()
	row.LargeCount = large
	mine, m, err := e.timeSize(w, size, n)
	if err != nil {
		return false, err
	}
	if err := e.report(w, row, mine, m); err != nil {
		return false, err
	}
	if o.Buffers == kernel.BuffersIMB {
		if e.World.Rank() == 0 {
			if err := mpi.IMBHeapSize(e.World.Size()); err != nil {
				return false, err
			}
		}
		w.job.Release() // IMB frees both buffers after every size
	}
	if o.MsgPause {
		time.Sleep(time.Duration(max(0.1, (mpi.Wtime()-sizeStart)/10) * float64(time.Second)))
	}
	// The collector is off while measuring; collect the size's garbage
	// (gathered samples, encoded records) now, outside any timed loop,
	// so a rank's memory stays flat over a sweep.
	runtime.GC()
	return false, nil
}

// repetitions sets the job up for a size and decides how many
// repetitions every group runs: IMB's fixed or time-based count, or the
// estimate of -iter_policy dynamic, after IMB's untimed pre-run.
func (e *Engine) repetitions(w *sweep, size int64, count int, lay imb.Layout, n0 int, dynamic bool) (n int, err error) {
	o := &e.Opt
	n = n0
	if w.active {
		w.spec.Count = count
		w.spec.SendOffs, w.spec.RecvOffs = lay.SendOffs, lay.RecvOffs
		w.spec.SendCacheIter, w.spec.RecvCacheIter = lay.SendIter, lay.RecvIter
		w.job.Set(w.spec)
		if err := w.job.Reserve(lay.SendAlloc, lay.RecvAlloc, n0, w.comm.Rank()); err != nil {
			return 0, err
		}
		if h := transfers[w.s.Kernel].size; h != nil { // IMB_init_transfer, before the pre-run
			if err := h(w.job, size); err != nil {
				return 0, err
			}
		}
		if dynamic {
			if n, err = e.estimate(w.job, w.comm, w.s, n0, w.prev, size, w.listSizes, w.listReps); err != nil {
				return 0, err
			}
		} else if o.Policy != imb.PolicyPrecision {
			if _, err := w.job.Run(n, false); err != nil { // IMB's untimed pre-run
				return 0, err
			}
		}
	}
	// Every group of -multi runs the same count (one group already
	// agrees: its rank 0 broadcast it). Between sizes gomb sends no
	// more than IMB does: Open MPI's shared-memory fast boxes are a
	// ring whose phase follows every byte sent, and a different phase
	// moves small-message times by up to 20% (IMB's own numbers move
	// as much with the benchmark run before).
	if w.ngroups > 1 {
		if n, err = e.World.MinInt(pick(w.active, n, math.MaxInt32)); err != nil {
			return 0, err
		}
	}
	if dynamic && w.s.Family != imb.Sync {
		if o.Sizes != nil {
			w.listSizes, w.listReps = append(w.listSizes, size), append(w.listReps, n)
		}
		w.prev = n
	}
	return n, nil
}

// timeSize runs the timed loop of n repetitions (after IMB's warm-up) and
// -check's validation on the active ranks: this rank's slots.
func (e *Engine) timeSize(w *sweep, size int64, n int) (mine []float64, m measured, err error) {
	o := &e.Opt
	mine = bench.NewSlots(nSlots, n)
	if !w.active {
		return mine, m, nil
	}
	if o.WarmUp && !transfers[w.s.Kernel].noWarmup {
		warm := o.WarmupMode(w.s, w.mode)
		if warm != w.mode {
			spec := w.spec
			spec.Aggregate = warm == result.ModeAggregate
			w.job.Set(spec)
		}
		_, err := w.job.Run(imb.WarmupReps(n), false)
		w.job.Set(w.spec)
		if err != nil {
			return nil, m, err
		}
	}
	e.Fault.HangIfAsked(size, e.World.Rank())
	var before []result.NICCounter
	if o.NIC {
		before = host.NICCounters("/sys")
	}
	if m, err = e.measure(w.job, w.comm, n); err != nil {
		return nil, m, err
	}
	if o.NIC {
		w.nic = result.NICDelta("", before, host.NICCounters("/sys"))
	}
	mine[bench.SlotReps] = float64(m.n)
	if m.elapsed >= 0 {
		mine[bench.SlotTime] = m.elapsed / float64(m.n)
		if twoTimes(w.s) {
			nt := w.job.NBCTimes()
			mine[slotPure], mine[slotComp] = nt.Pure, nt.Compute/float64(m.n)
		}
	}
	if o.Check {
		for it := 0; it < 2; it++ {
			c, err := w.job.Validate(it)
			if err != nil {
				return nil, m, err
			}
			if c.Bad > 0 && mine[bench.SlotBad] == 0 {
				mine[bench.SlotFirstBad], mine[bench.SlotGot], mine[bench.SlotWant] = float64(c.FirstBad), c.Got, c.Want
			}
			mine[bench.SlotBad] += float64(c.Bad)
		}
	}
	return mine, m, nil
}

// report gathers every rank's slots and samples to rank 0, which turns
// them into rows and hands them on.
func (e *Engine) report(w *sweep, row *result.Result, mine []float64, m measured) error {
	o := &e.Opt
	if err := e.World.Barrier(); err != nil {
		return err
	}
	vals, err := e.gatherMine(mine, o.Check || (o.Policy == imb.PolicyPrecision && w.ngroups > 1), twoTimes(w.s))
	if err != nil {
		return err
	}
	var all [][]float64
	if o.Policy == imb.PolicyPrecision {
		all, err = e.World.GatherFloat64v(m.samples, 0)
	} else {
		all, err = e.World.GatherSamples(w.job, m.elapsed >= 0, 0)
	}
	if err != nil {
		return err
	}
	var nic map[string][]result.NICTraffic
	if o.NIC {
		if nic, err = e.gatherNIC(w); err != nil {
			return err
		}
	}
	if e.World.Rank() != 0 {
		return nil
	}
	rows := e.rows(w.table, row, vals, all)
	for _, r := range rows {
		seen := map[string]bool{}
		for _, rk := range r.Ranks {
			if h := e.host(rk); !seen[h] {
				seen[h] = true
				r.NIC = append(r.NIC, nic[h]...)
			}
		}
	}
	return e.emit(w.table, rows, w.sum)
}

// gatherNIC gathers what every active rank saw its host's interfaces carry
// in the size's timed loop; rank 0 keeps, for each host, the reading of
// its lowest active rank.
func (e *Engine) gatherNIC(w *sweep) (map[string][]result.NICTraffic, error) {
	var mine []byte
	if w.active {
		var err error
		if mine, err = json.Marshal(w.nic); err != nil {
			return nil, err
		}
	}
	all, err := e.World.GathervBytes(mine, 0)
	if err != nil || e.World.Rank() != 0 {
		return nil, err
	}
	byHost := map[string][]result.NICTraffic{}
	for rk, b := range all {
		h := e.host(rk)
		if len(b) == 0 || byHost[h] != nil {
			continue
		}
		var ts []result.NICTraffic
		if err := json.Unmarshal(b, &ts); err != nil {
			return nil, fmt.Errorf("-nic: rank %d: %v", rk, err)
		}
		for i := range ts {
			ts[i].Host = h
		}
		if ts == nil {
			ts = []result.NICTraffic{} // read: nothing moved
		}
		byHost[h] = ts
	}
	return byHost, nil
}

// host names world rank rk's host ("" when unknown).
func (e *Engine) host(rk int) string {
	if rk >= 0 && rk < len(e.Hosts) {
		return e.Hosts[rk]
	}
	return ""
}
