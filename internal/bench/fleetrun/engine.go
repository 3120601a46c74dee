// Package fleetrun runs gomb fleet's sweep (package fleet) on
// MPI_COMM_WORLD: round by round, every pair of the round on a
// communicator of its own, at once, osu_latency's and osu_bw's loops
// entered once each per pair through package mpi; then every pair's
// samples to rank 0, which makes the rows.
package fleetrun

import (
	"encoding/json"
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
	Hosts []string // every rank's host
	Plan  []fleet.Round // one sweep's rounds, run Opt.Sweeps times
	Done  fleet.DoneSet // pairs not measured again (-resume)
	// Sink and Progress are rank 0's (nil elsewhere); Progress is told
	// after each pair's rows.
	Sink     Sink
	Progress func(p fleet.Pair)
	// Watch is told, on every rank, when a round starts (a watchdog).
	Watch func(watchdog.Phase)
	// NIC: count every interface's bytes around each pair's bandwidth
	// loop (the pair's NIC, on each host).
	NIC bool
	// Fault is what GOMB_FAULT injects (a stuck rank); nil: none.
	Fault *bench.Fault
}

// measured is what one rank of a pair brings to rank 0.
type measured struct {
	lat, bw []float64 // seconds per round trip, per window (the pair's first rank)
	nic     []result.NICTraffic
}

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

// round measures the pairs of one round at once.
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
	if e.Watch != nil {
		e.Watch(watchdog.Phase{Bench: "fleet round", NP: len(ranks), Bytes: e.Opt.BWBytes, Ranks: ranks})
	}
	comm, err := e.World.Split(color, key)
	if err != nil {
		return err
	}
	var m measured
	var failed error
	if !comm.Null() {
		failed = e.measure(job, comm, &m)
		comm.Free()
	}
	// every rank agrees on a failure before anything more is exchanged
	bad := 0
	if failed != nil {
		bad = 1
	}
	if bad, err = e.World.MaxInt(bad); err != nil {
		return err
	}
	if bad != 0 {
		if failed == nil {
			failed = fmt.Errorf("a pair of round %d failed", index+1)
		}
		return failed
	}
	lat, err := e.World.GathervFloat64s(m.lat, 0)
	if err != nil {
		return err
	}
	bw, err := e.World.GathervFloat64s(m.bw, 0)
	if err != nil {
		return err
	}
	nicJSON, _ := json.Marshal(m.nic)
	nics, err := e.World.GathervBytes(nicJSON, 0)
	if err != nil {
		return err
	}
	if me != 0 {
		return nil
	}
	now := time.Now()
	for g, p := range round {
		var traffic []result.NICTraffic
		for _, r := range []int{p.A, p.B} {
			if r == p.B && e.Hosts[p.B] == e.Hosts[p.A] {
				break // one host's counters, read by both: once
			}
			var t []result.NICTraffic
			if json.Unmarshal(nics[r], &t) == nil {
				traffic = append(traffic, t...)
			}
		}
		pair := &result.Pair{Ranks: [2]int{p.A, p.B}, Hosts: [2]string{e.Hosts[p.A], e.Hosts[p.B]},
			Local: [2]int{p.RankA, p.RankB}, Round: index, Sweep: sweep, Concurrent: len(round)}
		if len(lat[p.A]) == 0 || len(bw[p.A]) == 0 {
			return fmt.Errorf("round %d: the pair %s, %s kept no samples", index+1, e.Nodes[p.NodeA].Host, e.Nodes[p.NodeB].Host)
		}
		rows := []*result.Result{
			e.row(fleet.Latency, e.Opt.LatBytes, lat[p.A], 0.5, pair, g, len(round), now),
			e.row(fleet.Bandwidth, e.Opt.BWBytes, bw[p.A], 1, pair, g, len(round), now),
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
	}
	return nil
}

// measure runs this rank's pair on comm: the latency loop, then the
// bandwidth loop with the NIC counters read around it.
func (e *Engine) measure(job *mpi.Job, comm mpi.Comm, m *measured) error {
	o := &e.Opt
	if err := job.Bind(comm); err != nil {
		return err
	}
	if err := job.Reserve(max(o.LatBytes, o.BWBytes), max(o.LatBytes, o.BWBytes), max(o.LatIters, o.BWIters), comm.Rank()); err != nil {
		return err
	}
	e.Fault.HangIfAsked(o.LatBytes, e.World.Rank())
	var err error
	lat := kernel.Params{Kernel: kernel.OSULatency, Type: kernel.Byte, Count: int(o.LatBytes)}
	if m.lat, err = e.loop(job, comm, lat, o.Warmup, o.LatIters); err != nil {
		return err
	}
	var before []result.NICCounter
	if e.NIC {
		before = host.NICCounters("/sys")
	}
	bw := kernel.Params{Kernel: kernel.OSUBw, Type: kernel.Byte, Count: int(o.BWBytes), Window: o.Window}
	if m.bw, err = e.loop(job, comm, bw, o.BWWarmup(), o.BWIters); err != nil {
		return err
	}
	if e.NIC {
		name, _ := mpi.ProcessorName()
		m.nic = result.NICDelta(name, before, host.NICCounters("/sys"))
	}
	return nil
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
