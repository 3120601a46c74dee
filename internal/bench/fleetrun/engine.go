// Package fleetrun runs gomb fleet's sweep (package fleet) on
// MPI_COMM_WORLD: round by round, every pair of the round on a
// communicator of its own, at once, osu_latency's and osu_bw's loops
// entered once each per pair through package mpi; then every pair's
// samples to rank 0, which makes the rows.
package fleetrun

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/host"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/stats"
	"github.com/gomb-hpc/gomb/internal/watchdog"
	"github.com/gomb-hpc/gomb/result"
)

// Sink takes rank 0's rows.
type Sink interface {
	Result(*result.Result) error
}

// Engine runs a planned sweep. Every rank has the same Nodes and Plan.
type Engine struct {
	Opt   fleet.Options
	World mpi.Comm
	RunID string
	Nodes []fleet.Node
	Hosts []string      // every rank's host
	Plan  []fleet.Round // one sweep's rounds, run Opt.Sweeps times
	Done  fleet.DoneSet // pairs not measured again (-resume)
	// Sink and Progress are rank 0's (nil elsewhere); Progress is told
	// after each pair's rows.
	Sink     Sink
	Progress func(p fleet.Pair)
	// Watch is told, on every rank, when a round starts (a watchdog);
	// Note, what the rank does within it (a pair's loop; on rank 0, the
	// pair it waits for).
	Watch, Note func(watchdog.Phase)
	// NIC: count every interface's bytes around each pair's bandwidth
	// loop (the pair's NIC, on each host).
	NIC bool
	// Fault is what GOMB_FAULT injects (a stuck rank); nil: none.
	Fault *bench.Fault
}

// report is what a pair's first rank sends rank 0 once the pair is
// done: its samples (seconds per round trip, per window) and what both
// hosts' interfaces counted; Err, a loop that failed (on either rank).
type report struct {
	G   int                 `json:"g"` // the pair's place in its round
	Lat []float64           `json:"lat,omitempty"`
	BW  []float64           `json:"bw,omitempty"`
	NIC [][]byte            `json:"nic,omitempty"` // each rank's NICTraffic, JSON
	Err string              `json:"err,omitempty"`
	nic []result.NICTraffic // this rank's
}

// The tags of what a pair tells rank 0 on MPI_COMM_WORLD.
const (
	tagLatDone = 0x666c // the pair's latency loop ended (an empty message)
	tagReport  = 0x666d // the pair's report, JSON
)

// Run runs the plan's rounds in order, Opt.Sweeps times.
func (e *Engine) Run() error {
	job, err := mpi.NewJob()
	if err != nil {
		return err
	}
	defer job.Free()
	for sweep := 0; sweep < e.Opt.Sweeps; sweep++ {
		for i, round := range e.Plan {
			if round = e.Done.Left(round, sweep, e.Nodes); len(round) == 0 {
				continue // measured by the sweep this one resumes
			}
			if err := e.round(job, i, sweep, round); err != nil {
				return err
			}
			runtime.GC() // the collector is off while measuring; collect between rounds
		}
	}
	return nil
}

// round measures the pairs of one round at once. Each pair's first rank
// sends rank 0 its report as soon as the pair is done, and rank 0 writes
// the pair's rows as it comes (watching the others, so that the watchdog
// names a pair that hangs, and the pairs done beside it keep their rows);
// then rank 0 tells every rank whether a pair failed.
func (e *Engine) round(job *mpi.Job, index, sweep int, round fleet.Round) error {
	me, color, key := e.World.Rank(), -1, 0
	var ranks []int
	for g, p := range round {
		ranks = append(ranks, p.A, p.B)
		switch me {
		case p.A:
			color = g
		case p.B:
			color, key = g, 1
		}
	}
	e.watch(watchdog.Phase{Bench: "fleet round", NP: len(ranks), Ranks: ranks}, false)
	waiting := watchdog.Phase{What: fmt.Sprintf("round %d of sweep %d, waiting for its pairs", index+1, sweep+1), Ranks: ranks}
	if color < 0 {
		e.watch(waiting, true)
	}
	comm, err := e.World.Split(color, key)
	if err != nil {
		return err
	}
	var own *report
	if !comm.Null() {
		rep := &report{G: color}
		if err := e.measure(job, comm, round[color], rep, waiting); err != nil {
			rep.Err = fmt.Sprintf("round %d: the pair %s, %s: %v", index+1, e.Nodes[round[color].NodeA].Host, e.Nodes[round[color].NodeB].Host, err)
		}
		comm.Free()
		switch {
		case me == 0:
			own = rep
		case key == 0 || rep.Err != "":
			b, _ := json.Marshal(rep)
			if err := e.World.SendBytes(b, 0, tagReport); err != nil {
				return err
			}
		}
	}
	var failed string
	if me == 0 {
		if failed, err = e.collect(index, sweep, round, own); err != nil {
			return err
		}
	}
	b, err := e.World.BcastBytes([]byte(failed), 0)
	if err != nil {
		return err
	}
	if len(b) > 0 {
		return errors.New(string(b))
	}
	return nil
}

// watch tells the watchdog what runs: a new phase, or (note) what this
// rank does within the phase now running.
func (e *Engine) watch(p watchdog.Phase, note bool) {
	switch {
	case note && e.Note != nil:
		e.Note(p)
	case !note && e.Watch != nil:
		e.Watch(p)
	}
}

// collect is rank 0's part of a round: own's rows (its own pair's, nil
// when it has none), then every other pair's as its report comes. While
// it waits, the watchdog's note names the first pair not done and the
// loop it is in. It returns the first pair's failure ("" for none).
func (e *Engine) collect(index, sweep int, round fleet.Round, own *report) (string, error) {
	now := time.Now()
	failed := ""
	done := make([]bool, len(round))
	inBW := make([]bool, len(round))
	left := len(round)
	take := func(rep *report) error {
		if !done[rep.G] {
			done[rep.G] = true
			left--
		}
		if rep.Err != "" {
			failed = cmp.Or(failed, rep.Err)
			return nil
		}
		return e.emit(index, sweep, round, rep, now)
	}
	if own != nil {
		if err := take(own); err != nil {
			return "", err
		}
	}
	for left > 0 {
		for g, p := range round {
			if !done[g] {
				e.watch(e.loopPhase(p, inBW[g]), true)
				break
			}
		}
		src, tag, n, ok, err := e.World.Probe()
		if err != nil {
			return "", err
		}
		if !ok {
			time.Sleep(100 * time.Microsecond)
			continue
		}
		b, err := e.World.RecvBytes(n, src, tag)
		if err != nil {
			return "", err
		}
		if tag == tagLatDone {
			for g, p := range round {
				if p.A == src {
					inBW[g] = true
				}
			}
			continue
		}
		var rep report
		if err := json.Unmarshal(b, &rep); err != nil || rep.G < 0 || rep.G >= len(round) {
			return "", fmt.Errorf("round %d: rank %d's report: %v", index+1, src, err)
		}
		if err := take(&rep); err != nil {
			return "", err
		}
	}
	return failed, nil
}

// emit makes a pair's rows from its report and hands them to the sink.
func (e *Engine) emit(index, sweep int, round fleet.Round, rep *report, now time.Time) error {
	p := round[rep.G]
	var traffic []result.NICTraffic
	for _, b := range rep.NIC {
		var t []result.NICTraffic
		if json.Unmarshal(b, &t) == nil {
			traffic = append(traffic, t...)
		}
	}
	pair := &result.Pair{Ranks: [2]int{p.A, p.B}, Hosts: [2]string{e.Hosts[p.A], e.Hosts[p.B]},
		Local: [2]int{p.RankA, p.RankB}, Round: index, Sweep: sweep, Concurrent: len(round)}
	if len(rep.Lat) == 0 || len(rep.BW) == 0 {
		return fmt.Errorf("round %d: the pair %s, %s kept no samples", index+1, e.Nodes[p.NodeA].Host, e.Nodes[p.NodeB].Host)
	}
	rows := []*result.Result{
		e.row(fleet.Latency, e.Opt.LatBytes, rep.Lat, 0.5, pair, rep.G, len(round), now),
		e.row(fleet.Bandwidth, e.Opt.BWBytes, rep.BW, 1, pair, rep.G, len(round), now),
	}
	// osu_bw's rate: the windows' bytes over their summed time
	rows[1].NIC = traffic
	rows[1].MBps = float64(e.Opt.BWBytes) * float64(e.Opt.Window) / (rows[1].TAvgUS / 1e6) / 1e6
	rows[1].MsgPerSec = float64(e.Opt.Window) / (rows[1].TAvgUS / 1e6)
	for _, r := range rows {
		if err := e.Sink.Result(r); err != nil {
			return err
		}
	}
	if e.Progress != nil {
		e.Progress(p)
	}
	return nil
}

// measure runs this rank's pair p on comm: the latency loop, then the
// bandwidth loop with the NIC counters read around it; the first rank
// gathers both ranks' counts.
func (e *Engine) measure(job *mpi.Job, comm mpi.Comm, p fleet.Pair, rep *report, waiting watchdog.Phase) error {
	o := &e.Opt
	if err := job.Bind(comm); err != nil {
		return err
	}
	if err := job.Reserve(max(o.LatBytes, o.BWBytes), max(o.LatBytes, o.BWBytes), max(o.LatIters, o.BWIters), comm.Rank()); err != nil {
		return err
	}
	e.watch(e.loopPhase(p, false), true)
	e.Fault.HangIfAsked(o.LatBytes, e.World.Rank())
	var err error
	lat := kernel.Params{Kernel: kernel.OSULatency, Type: kernel.Byte, Count: int(o.LatBytes)}
	if rep.Lat, err = e.loop(job, comm, lat, o.Warmup, o.LatIters); err != nil {
		return err
	}
	if comm.Rank() == 0 && e.World.Rank() != 0 {
		if err := e.World.SendBytes(nil, 0, tagLatDone); err != nil {
			return err
		}
	}
	e.watch(e.loopPhase(p, true), true)
	var before []result.NICCounter
	if e.NIC {
		before = host.NICCounters("/sys")
	}
	bw := kernel.Params{Kernel: kernel.OSUBw, Type: kernel.Byte, Count: int(o.BWBytes), Window: o.Window}
	if rep.BW, err = e.loop(job, comm, bw, o.BWWarmup(), o.BWIters); err != nil {
		return err
	}
	var mine []byte
	if e.NIC && (comm.Rank() == 0 || e.Hosts[p.B] != e.Hosts[p.A]) { // one host's counters, read by both: once
		name, _ := mpi.ProcessorName()
		mine, _ = json.Marshal(result.NICDelta(name, before, host.NICCounters("/sys")))
	}
	rep.NIC, err = comm.GathervBytes(mine, 0)
	e.watch(waiting, true)
	return err
}

// loopPhase is what the watchdog says of pair p's latency loop (or its
// bandwidth loop: bw), e.g. "pair_latency of n07 - n12, np 2, 8 bytes".
func (e *Engine) loopPhase(p fleet.Pair, bw bool) watchdog.Phase {
	name, n := fleet.Latency, e.Opt.LatBytes
	if bw {
		name, n = fleet.Bandwidth, e.Opt.BWBytes
	}
	return watchdog.Phase{Bench: fmt.Sprintf("%s of %s - %s", name, e.Nodes[p.NodeA].Host, e.Nodes[p.NodeB].Host),
		NP: 2, Bytes: n, Ranks: []int{p.A, p.B}}
}

// loop runs one of a pair's loops: warm untimed iterations (one at
// least, and no more than fit in the budget at the pace of the first),
// whose time, the pair's first rank's, sets how many of the n timed ones
// fit in the budget; then the timed ones, each kept. It returns the
// samples, seconds (the first rank's; none on the second).
func (e *Engine) loop(job *mpi.Job, comm mpi.Comm, p kernel.Params, warm, n int) ([]float64, error) {
	budget := e.Opt.BudgetS
	fits := func(k int, per float64) int {
		if per > 0 && budget > 0 {
			return int(min(float64(k), budget/per))
		}
		return k
	}
	job.Set(p)
	per, err := job.Run(1, false)
	if err != nil {
		return nil, err
	}
	more, err := comm.BcastInt(fits(max(0, warm-1), per), 0)
	if err != nil {
		return nil, err
	}
	if more > 0 {
		took, err := job.Run(more, false)
		if err != nil {
			return nil, err
		}
		per = took / float64(more)
	}
	if n, err = comm.BcastInt(max(1, fits(n, per)), 0); err != nil {
		return nil, err
	}
	if _, err := job.Run(n, true); err != nil {
		return nil, err
	}
	return job.Samples(), nil
}

// row is a pair's row of one measurement from the first rank's samples
// (seconds, at least one), scaled (0.5: half a round trip).
func (e *Engine) row(name string, bytes int64, samples []float64, scale float64, pair *result.Pair, g, n int, now time.Time) *result.Result {
	us := make([]float64, len(samples))
	for i, s := range samples {
		us[i] = s * scale * 1e6
	}
	r := &result.Result{Suite: fleet.Suite, Benchmark: name, NP: 2, Groups: n, Group: g, Bytes: bytes, RunID: e.RunID,
		Repetitions: len(us), Status: result.StatusOK, Time: now, Pair: pair,
		Ranks: []int{pair.Ranks[0]}, SamplesUS: [][]float64{us}}
	r.Locality, r.HostCount = result.Locality(pair.Hosts[:])
	mean := stats.Mean(us)
	sorted := stats.Sorted(us)
	r.RankMeanUS = []float64{mean}
	r.TMinUS, r.TMaxUS, r.TAvgUS = mean, mean, mean
	r.P50US, r.P90US, r.P99US = stats.Quantile(sorted, 0.5), stats.Quantile(sorted, 0.9), stats.Quantile(sorted, 0.99)
	return r
}
