package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/result"
)

// containWait is how long a rank that met an MPI error in a benchmark
// waits for the others to say how it ended for them. Ranks that met the
// same error (a library defect fails the same call everywhere) arrive
// within moments; a rank still inside the benchmark after this long is
// waiting for one that left it, and the job ends as after any MPI error.
const containWait = 10 * time.Second

// Contain is what a job of several benchmarks (IMB's list, gomb osu's
// tests) asks after each one, on every rank: an MPI error that every rank
// met in a benchmark ends that benchmark only. The ranks agree on how it
// ended over a communicator of their own (a split of the world, made here:
// every rank calls Contain, before the sweep), so that nothing the
// benchmark left behind on the world can match the agreement. Every rank
// met an MPI error: rank 0 writes the benchmark's row of status
// mpi-error (the size in flight, the error as its reason) through text,
// the suite's text writer, and says so in one line; the hook returns nil,
// the engine goes on with the next benchmark, and the job ends with exit
// status 6 (Contained). Some ranks only: the hook returns an error, and
// the job ends as after any MPI error (Measure's Abort); a rank that met
// the error waits at most containWait for the others, which may be stuck
// inside the benchmark waiting for it. An error that is not MPI's (a
// record that cannot be written) ends the job as before, without an
// agreement.
func (s *Session) Contain(text func(*result.Result) error) (bench.Contain, error) {
	c, err := s.World.Split(0, s.Rank)
	if err != nil {
		return nil, err
	}
	s.agreeComm = c
	return func(name string, err error) error { return s.contain(c, text, name, err) }, nil
}

// Contained is the exit of a job in which an MPI error ended some
// benchmarks and the others ran (nil: none did): exit status 6, as for
// tests that did not run. Every rank answers alike.
func (s *Session) Contained() error {
	if len(s.contained) == 0 {
		return nil
	}
	return &cli.ExitError{Code: cli.ExitNotRun,
		Err: fmt.Errorf("an MPI error ended %s on every rank; the other tests ran", strings.Join(s.contained, ", "))}
}

func (s *Session) contain(c mpi.Comm, text func(*result.Result) error, name string, err error) error {
	var me *mpi.Error
	if err != nil && !errors.As(err, &me) {
		return err
	}
	limit := time.Duration(0) // a rank that ended well waits as long as the watchdog lets it
	if err != nil {
		limit = containWait
	}
	all, some, done, aerr := c.Agree(err != nil, limit)
	switch {
	case aerr != nil && err != nil:
		return err
	case aerr != nil:
		return aerr
	case !done: // the others are still inside the benchmark
		return err
	case !some:
		return nil
	case !all && err != nil:
		return err
	case !all:
		return fmt.Errorf("%s: an MPI error on other ranks ended it there", name)
	}
	s.contained = append(s.contained, name)
	if s.Rank != 0 {
		return nil
	}
	reason := strings.Join(strings.Fields(me.Error()), " ") // MPICH's error stacks span lines
	r := &result.Result{Suite: s.cmd.Suite, Benchmark: name, NP: s.Size, Groups: 1, Group: -1, RunID: s.RunID(),
		Status: result.StatusMPIError, Reason: reason, Time: time.Now(),
		Ranks: []int{}, RankMeanUS: []float64{}, SamplesUS: [][]float64{}}
	var ranks []int
	if s.dog != nil {
		if p := s.dog.Phase(); p.Bench == name && p.What == "" {
			r.NP, r.Bytes, ranks = p.NP, p.Bytes, p.Ranks
		}
	}
	hosts := s.rankHost // the ranks the phase names, or every rank
	if len(ranks) > 0 {
		hosts = nil
		for _, rk := range ranks {
			if rk < len(s.rankHost) {
				hosts = append(hosts, s.rankHost[rk])
			}
		}
	}
	r.Locality, r.HostCount = result.Locality(hosts)
	fmt.Fprintf(s.stderr, "gomb %s: %s: MPI error at np %d, %d bytes, on every rank: %s; the other tests go on\n",
		s.cmd.Name, name, r.NP, r.Bytes, reason)
	return s.Result(r, text)
}
