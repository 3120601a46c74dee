package ring

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/result"
)

// Suite and Name: the ring's records, a suite of one benchmark.
const (
	Suite = "ring"
	Name  = "ring"
)

// ThreadLevel is how mpi-comm-bench starts MPI: plain MPI_Init.
const ThreadLevel = kernel.NoThreadInit

// The ring is paced by its slowest rank, and every rank times its own
// transfer, so two ranks suffice to name a slow one.
func init() {
	bench.RegisterTraits(bench.Traits{Suite: Suite, Name: Name, Label: Name, Lead: bench.LeadMaxTime, OwnTimes: true})
}

// Record turns a sample into a result record: every rank's duration, the
// bandwidth over the ranks, the slowest rank; hosts are the ranks' hosts.
func Record(runID string, msg int64, s Sample, hostList []string) *result.Result {
	r := &result.Result{Suite: Suite, Benchmark: Name, RunID: runID, NP: len(s.DurS), Groups: 1, Group: -1,
		Bytes: msg, Repetitions: 1, Status: result.StatusOK, Sample: s.Index, Cold: s.Cold, Time: s.Time,
		TMinUS: s.MinS * 1e6, TMaxUS: s.MaxS * 1e6, TAvgUS: s.AvgS * 1e6, MBps: s.AvgGBps * 1e3}
	for i, d := range s.DurS {
		r.Ranks = append(r.Ranks, i)
		r.RankMeanUS = append(r.RankMeanUS, d*1e6)
		r.SamplesUS = append(r.SamplesUS, []float64{d * 1e6})
	}
	r.Locality, r.HostCount = result.Locality(hostList)
	return r
}
