// Package osurun is the OSU engine: it runs one test of package osu over
// its message sizes with OSU's iteration and warm-up counts, its C kernel
// entered once per size through package mpi, and hands rank 0's records
// to a Sink; one-way latency's clock synchronisation lives here too.
package osurun

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Engine runs one OSU test on MPI_COMM_WORLD.
type Engine struct {
	Opt      osu.Options
	World    mpi.Comm
	Hosts    []string
	RunID    string
	Sink     osu.Sink                          // rank 0
	Progress func(size int64, done, total int) // rank 0, optional
	// Device, when set, places the buffers of this rank in GPU memory
	// (with -d, ranks whose buffers are in host memory have none).
	Device *mpi.Device
	// Watch is told, on every rank, what runs next (a watchdog); optional.
	Watch func(watchdog.Phase)
	// Fault is what GOMB_FAULT injects (a stuck rank: the watchdog's
	// tests; a refused MPI call); nil: none.
	Fault *bench.Fault
	// Fan is the layout of the fan tests' ranks (FanLayout), on every
	// rank; the fan tests need it.
	Fan *osu.Fan
	// Nbr is the neighbourhood collectives' graph (NeighbourLayout), on
	// every rank; those tests need it.
	Nbr *osu.Neighbourhood

	staged bool
	lmt    *mpi.LatencyMT // osu_latency_mt's threads and buffers
	graphs []osu.Graph    // -G: the sizes' graphs so far (rank 0)
}

// per-rank values gathered for every size: bench's slots (SlotTime is the
// loop's elapsed seconds), then the non-blocking breakdown
const (
	vPure = bench.NSlots + iota
	vInit
	vCompute
	vTest
	vWait
	nvals
)

// childSleepSeconds is how long osu_latency_mp's forked children live
// (OSU's CHILD_SLEEP_SECONDS).
const childSleepSeconds = 2

// syncSamples is the number of 0-byte exchanges of each clock sync.
const syncSamples = 200

// Run measures every size of the test.
func (e *Engine) Run(s *osu.Spec) (osu.Summary, error) {
	var sum osu.Summary
	o := &e.Opt
	rank, np := e.World.Rank(), e.World.Size()
	// with -d, transfers are staged through host memory (on every rank)
	// when the MPI library is not CUDA-aware
	e.staged = o.Device != "" && !mpi.CUDAAware()
	job, err := mpi.NewJob()
	if err != nil {
		return sum, err
	}
	defer job.Free()
	if err := job.Bind(e.World); err != nil {
		return sum, err
	}
	t := &osu.Table{Spec: s, Opt: o, NP: np, Win: s.Win, Sync: s.Sync, Fan: e.Fan}
	if s.IsFan() {
		if e.Fan == nil {
			return sum, fmt.Errorf("%s: no layout of the ranks over the hosts", s.Name)
		}
		parent, peers := e.Fan.Role(rank)
		if err := job.SetPeers(peers, parent); err != nil {
			return sum, err
		}
	}
	if s.Neighbour() {
		if err := e.neighbours(job, t); err != nil {
			return sum, err
		}
	}
	if o.WinSet {
		t.Win = o.Win
	}
	if o.SyncSet {
		t.Sync = o.Sync
	}
	if e.Device != nil {
		if err := e.Device.Attach(job); err != nil {
			return sum, err
		}
	}
	t.Staged = e.staged
	if rank == 0 {
		if err := e.Sink.Table(t); err != nil {
			return sum, err
		}
	}
	if s.Processes && rank < 2 {
		// osu_latency_mp: idle children beside each rank, forked, as OSU
		// forks them, before the message buffers are allocated (so that no
		// buffer page is shared copy-on-write with them); they sleep OSU's
		// CHILD_SLEEP_SECONDS and leave
		n := o.SendProcs
		if rank == 1 {
			n = o.RecvProcs
		}
		pids, err := mpi.ForkSleepers(n, childSleepSeconds)
		defer mpi.Reap(pids)
		if err != nil {
			return sum, err
		}
	}
	if o.ValidationLog != "" && o.Validate {
		if err := mpi.KeepMismatches(vlogLimit); err != nil {
			return sum, err
		}
		defer mpi.KeepMismatches(0)
	}
	sizes := o.Sizes(s, np)
	// OSU allocates its page-aligned buffers once, for the largest size,
	// before the sweep; so does gomb, so that no size runs on buffers
	// placed differently from OSU's.
	var maxSnd, maxRcv int64
	for _, size := range sizes {
		snd, rcv := e.buffers(t, size)
		maxSnd, maxRcv = max(maxSnd, snd), max(maxRcv, rcv)
	}
	if err := job.Reserve(maxSnd, maxRcv, 1, rank); err != nil {
		return sum, err
	}
	if s.Threads {
		if e.lmt, err = mpi.NewLatencyMT(e.World, o.SendThreads, o.RecvThreads, o.TagPerIter(), max(maxSnd, maxRcv)); err != nil {
			return sum, err
		}
		defer func() { e.lmt.Free(); e.lmt = nil }()
	}
	ranks := make([]int, np)
	for i := range ranks {
		ranks[i] = i
	}
	for idx, size := range sizes {
		if e.Watch != nil {
			e.Watch(watchdog.Phase{Bench: s.Name, NP: np, Bytes: size, Ranks: ranks})
		}
		e.Fault.HangIfAsked(size, rank)
		if e.Fault.MPIErrorAt(s.Name, size, rank) {
			return sum, fmt.Errorf("%s %d bytes: %w", s.Name, size, mpi.InjectError(e.World))
		}
		rows, err := e.size(job, t, size)
		if err != nil {
			return sum, fmt.Errorf("%s %d bytes: %w", s.Name, size, err)
		}
		for _, r := range rows {
			if r.Check != nil && !r.Check.Passed {
				sum.ValidationFailed++
			}
			sum.Results++
			if err := e.Sink.Result(r); err != nil {
				return sum, err
			}
		}
		if rank == 0 && e.Progress != nil {
			e.Progress(size, idx+1, len(sizes))
		}
		debug.FreeOSMemory() // between sizes, never inside a timed loop: garbage collected, its pages returned
	}
	if g, ok := e.Sink.(osu.Grapher); ok && rank == 0 && len(e.graphs) > 0 {
		err := g.Graphs(e.graphs)
		e.graphs = nil
		return sum, err
	}
	return sum, nil
}

// FanLayout lays the ranks out for the fan tests from the hosts rank 0
// knows (one a rank; nil elsewhere), on every rank alike.
func FanLayout(world mpi.Comm, hosts []string) (*osu.Fan, error) {
	b, err := world.BcastBytes([]byte(strings.Join(hosts, "\n")), 0)
	if err != nil {
		return nil, err
	}
	return osu.NewFan(strings.Split(string(b), "\n"))
}

// NeighbourLayout is the graph of the neighbourhood collectives, alike on
// every rank: a grid of MPI_Dims_create's dimensions, or the adjacency
// list rank 0 reads and hands the others.
func NeighbourLayout(world mpi.Comm, t osu.Topology) (*osu.Neighbourhood, error) {
	np := world.Size()
	if t.Kind == "cart" {
		dims, err := mpi.DimsCreate(np, t.Dim)
		if err != nil {
			return nil, err
		}
		return osu.CartNeighbourhood(np, dims, t.Radius)
	}
	data, err := ReadOnRoot(world, t.File)
	if err != nil {
		return nil, fmt.Errorf("-N %s: %v", t, err)
	}
	return osu.GraphNeighbourhood(data, t.File, np)
}

// maxInputFile bounds a file of settings read on rank 0 and sent to every
// rank (an indexed datatype's blocks, a graph): far above any real one.
const maxInputFile = 64 << 20

// readSmallFile reads a regular file of at most maxInputFile bytes: a FIFO
// would wait for a writer forever, /dev/zero never end.
func readSmallFile(path string) ([]byte, error) {
	// before opening: opening a FIFO waits for its writer
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInputFile+1))
	if err == nil && len(data) > maxInputFile {
		err = fmt.Errorf("%s: larger than %d MiB", path, maxInputFile>>20)
	}
	return data, err
}

// ReadOnRoot is a file rank 0 reads and hands the others (no shared file
// system needed), or on every rank the error rank 0 met.
func ReadOnRoot(world mpi.Comm, path string) ([]byte, error) {
	var msg []byte // a status byte, then the file or why it could not be read
	if world.Rank() == 0 {
		if data, err := readSmallFile(path); err != nil {
			msg = append([]byte{1}, err.Error()...)
		} else {
			msg = append([]byte{0}, data...)
		}
	}
	b, err := world.BcastBytes(msg, 0)
	switch {
	case err != nil:
		return nil, err
	case len(b) == 0:
		return nil, fmt.Errorf("%s: nothing read", path)
	case b[0] != 0:
		return nil, errors.New(string(b[1:]))
	}
	return b[1:], nil
}

// neighbours makes the job's graph (every rank) and puts it and the mean
// time making it took in the table (rank 0).
func (e *Engine) neighbours(job *mpi.Job, t *osu.Table) error {
	if e.Nbr == nil || len(e.Nbr.Sources) != t.NP {
		return fmt.Errorf("%s: no neighbourhood for %d ranks", t.Spec.Name, t.NP)
	}
	me := e.World.Rank()
	took, err := job.SetNeighbours(e.Nbr.Dims, e.Nbr.Sources[me], e.Nbr.Dests[me], e.Nbr.Slots(me))
	if err != nil {
		return err
	}
	all, err := e.World.GatherFloat64s([]float64{took}, 0)
	if err != nil || me != 0 {
		return err
	}
	sum := 0.0
	for _, v := range all {
		sum += v
	}
	t.Nbr, t.NbrCreateUS = e.Nbr, sum/float64(len(all))*1e6
	return nil
}

// buffers are the send and receive bytes a size needs: a block per rank,
// or per neighbour where a graph gives a rank more neighbours than ranks.
func (e *Engine) buffers(t *osu.Table, size int64) (snd, rcv int64) {
	width := t.NP
	if e.Nbr != nil && t.Spec.Neighbour() {
		width = max(width, e.Nbr.MaxDegree())
	}
	snd, rcv = t.Spec.Buffers(size, width, t.Opt.Window)
	if t.Opt.InPlace {
		rcv = max(snd, rcv)
	}
	if t.Spec.Job.Kernel == kernel.RMA && t.Win == kernel.WinAllocate {
		rcv = 0 // the window is MPI's memory, as in OSU
	}
	return snd, rcv
}

// spec is the kernel call for a size.
func (e *Engine) spec(t *osu.Table, size int64, skip int) kernel.Params {
	o, s := t.Opt, t.Spec
	js := s.Job
	js.Type = o.ElemType(s)
	js.Count = int(size / int64(js.Type.Size()))
	if s.SplitCount {
		js.Count /= t.NP
	}
	js.Skip = skip
	js.Window = o.Window
	js.Root = o.Root
	js.RootShift = o.RootRotate
	js.InPlace = o.InPlace
	js.WinMode, js.SyncMode = t.Win, t.Sync
	js.NTest = o.NTest
	// OSU separates collective iterations with a barrier outside the timer.
	js.Sync = s.Kind == osu.Collective || s.Kind == osu.NonBlocking
	return js
}

// size measures one size on every rank and returns, on rank 0, its rows.
func (e *Engine) size(job *mpi.Job, t *osu.Table, size int64) ([]*result.Result, error) {
	o, s := t.Opt, t.Spec
	rank := e.World.Rank()
	iters, skip := o.Counts(s, size)
	snd, rcv := e.buffers(t, size)
	if err := job.Reserve(snd, rcv, max(iters, syncSamples), rank); err != nil {
		return nil, err
	}
	js := e.spec(t, size, skip)
	mine := bench.NewSlots(nvals, iters)
	payload := size
	if d := o.DDT; d != nil {
		// OSU's -D: this size's type, made before the clock starts
		// (an indexed type's reach was checked against the largest size,
		// whose buffers every size has)
		elems, _, err := job.SetDDT(d.Kind, js.Type, js.Count, d.Stride, d.BlockLen, d.Displs, d.Lens)
		if err != nil {
			return nil, err
		}
		payload = elems * int64(js.Type.Size())
	}

	if err := e.World.Barrier(); err != nil {
		return nil, err
	}
	var stamps [3][]float64
	var own []float64 // samples kept outside the job: one-way's, the threads'
	var err error
	if s.Threads {
		var v mpi.Validation
		if mine[bench.SlotTime], own, v, err = e.lmt.Run(js.Type, js.Count, iters, skip, true, o.Validate); err != nil {
			return nil, err
		}
		if v.Bad > 0 {
			mine[bench.SlotBad], mine[bench.SlotFirstBad], mine[bench.SlotGot], mine[bench.SlotWant] = float64(v.Bad), float64(v.FirstBad), v.Got, v.Want
		}
	} else if stamps, own, err = timeLoop(job, s, js, iters, mine); err != nil {
		return nil, err
	}
	if o.Validate && !s.Threads {
		vs := js
		vs.ComputeS = 0
		job.Set(vs)
		for it := 0; it < 2; it++ {
			c, err := job.Validate(it)
			if err != nil {
				return nil, err
			}
			if o.ValidationLog != "" {
				if m, dropped := mpi.TakeMismatches(vlogLimit); len(m) > 0 || dropped > 0 {
					if err := logMismatches(o.ValidationLog, rank, size, it, js.Type, m, dropped); err != nil {
						return nil, err
					}
				}
			}
			if c.Bad > 0 && mine[bench.SlotBad] == 0 {
				mine[bench.SlotFirstBad], mine[bench.SlotGot], mine[bench.SlotWant] = float64(c.FirstBad), c.Got, c.Want
			}
			mine[bench.SlotBad] += float64(c.Bad)
		}
	}
	vals, err := e.World.GatherFloat64s(mine, 0)
	if err != nil {
		return nil, err
	}
	var all [][]float64
	if s.Kind == osu.OneWay || s.Threads {
		all, err = e.World.GathervFloat64s(own, 0)
	} else {
		all, err = e.World.GatherSamples(job, mine[bench.SlotTime] >= 0, 0)
	}
	if err != nil {
		return nil, err
	}
	var allStamps [3][][]float64
	if s.Kind == osu.OneWay {
		for k := range stamps {
			if allStamps[k], err = e.World.GathervFloat64s(stamps[k], 0); err != nil {
				return nil, err
			}
		}
	}
	if rank != 0 {
		return nil, nil
	}
	r, err := e.row(t, size, payload, iters, vals, all, allStamps)
	if err != nil {
		return nil, err
	}
	return []*result.Result{r}, nil
}

// timeLoop runs the timed loop of a size as the test's kind needs it,
// filling this rank's slots: non-blocking tests twice (pure, then with
// compute), one-way between two clock syncs (stamps: sync before, the
// measurement, sync after; its samples, before the second sync overwrites
// them), the others once.
func timeLoop(job *mpi.Job, s *osu.Spec, js kernel.Params, iters int, mine []float64) (stamps [3][]float64, oneWaySamples []float64, err error) {
	switch s.Kind {
	case osu.NonBlocking:
		// Pure communication first; then the same with as much compute as
		// this rank's pure time, to see how much of it hides.
		js.ComputeS = 0
		job.Set(js)
		el, err := job.Run(iters, false)
		if err != nil {
			return stamps, nil, err
		}
		pure := el / float64(iters)
		js.ComputeS = pure
		job.Set(js)
		if mine[bench.SlotTime], err = job.Run(iters, true); err != nil {
			return stamps, nil, err
		}
		nt := job.NBCTimes()
		mine[vPure] = pure
		mine[vInit], mine[vCompute], mine[vTest], mine[vWait] = nt.Init, nt.Compute, nt.Test, nt.Wait
	case osu.OneWay:
		for k, n := range []int{syncSamples, iters, syncSamples} {
			ks := js
			if k != 1 {
				ks.Count, ks.Skip = 0, syncSamples/10
			}
			job.Set(ks)
			el, err := job.Run(n, k == 1)
			if err != nil {
				return stamps, nil, err
			}
			stamps[k] = job.Stamps(n)
			if k == 1 {
				mine[bench.SlotTime] = el
				oneWaySamples = job.Samples()
			}
		}
	default:
		job.Set(js)
		if mine[bench.SlotTime], err = job.Run(iters, true); err != nil {
			return stamps, nil, err
		}
	}
	return stamps, oneWaySamples, nil
}

// Startup reports osu_init (every rank's MPI_Init, initTook here, gathered
// to rank 0) or osu_hello (that every rank started) as one result, on
// rank 0.
func (e *Engine) Startup(s *osu.Spec, initTook time.Duration) error {
	rank, np := e.World.Rank(), e.World.Size()
	all, err := e.World.GatherFloat64s([]float64{float64(initTook.Nanoseconds()) / 1e3}, 0)
	if err != nil || rank != 0 {
		return err
	}
	if err := e.Sink.Table(&osu.Table{Spec: s, Opt: &e.Opt, NP: np}); err != nil {
		return err
	}
	r := &result.Result{Suite: osu.Suite, Benchmark: s.Name, NP: np, Groups: 1, Group: -1, RunID: e.RunID,
		Status: result.StatusOK, Time: time.Now(), Repetitions: 1, Ranks: []int{}, RankMeanUS: []float64{}, SamplesUS: [][]float64{}}
	r.Locality, r.HostCount = result.Locality(e.Hosts)
	if s.Name == "init" {
		r.TMinUS, r.TMaxUS = math.Inf(1), 0
		for w, us := range all {
			r.Ranks = append(r.Ranks, w)
			r.RankMeanUS = append(r.RankMeanUS, us)
			r.SamplesUS = append(r.SamplesUS, []float64{us})
			r.TMinUS, r.TMaxUS = math.Min(r.TMinUS, us), math.Max(r.TMaxUS, us)
			r.TAvgUS += us / float64(np)
		}
	}
	return e.Sink.Result(r)
}
