package session

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/watchdog"
)

// initLimit is how long MPI_Init gets: 5 minutes, or the -watchdog value
// if given (a minute at least). It waits for every process of the job
// through the launcher's PMI, so a process that never calls it (one that
// ended first, a gomb built without MPI on one node) keeps the others
// there for good.
func initLimit(size time.Duration) time.Duration {
	if size > 0 {
		return max(size, time.Minute)
	}
	return 5 * time.Minute
}

// agreeLimit is how long the ranks get to agree on their command line
// once MPI_Init returned: 30 s plus ten times what MPI_Init took (the
// ranks leave MPI_Init within moments of each other; a slow start-up buys
// a slow agreement), or the -watchdog value if shorter (10 s at least).
func agreeLimit(initTook, size time.Duration) time.Duration {
	d := 30*time.Second + 10*initTook
	if size > 0 {
		d = min(d, max(size, 10*time.Second))
	}
	return d
}

// The phases of the start-up under its watchdog.
const (
	initWhat  = "MPI_Init"
	agreeWhat = "the ranks' agreement on their command line"
)

// startDog watches MPI_Init and the agreement that follows it (Session's
// own watchdog starts later, with the engine): when either does not end
// in time, this rank says so in one line and ends the job.
func startDog(c *Command, stderr io.Writer) *watchdog.Dog {
	d := watchdog.New(watchdog.Config{}, func(r watchdog.Report) {
		host, _ := os.Hostname()
		fmt.Fprintf(stderr, "gomb %s: rank %d on %s: %s did not end within %v: every process of the job must run the same gomb with the same arguments (a process that ended before MPI_Init, or a gomb of another version, waits elsewhere); ending the job\n",
			c.Name, max(EnvRank(), 0), host, r.Phase.What, r.Limit.Round(time.Second))
		if r.Phase.What == agreeWhat {
			// let the launcher forward the line before the abort tears
			// its output channels down (hydra drops it otherwise)
			time.Sleep(500 * time.Millisecond)
			go mpi.Abort(cli.ExitWatchdog)
			time.Sleep(5 * time.Second)
		}
		os.Exit(cli.ExitWatchdog) // MPI_Abort needs MPI_Init to have returned
	})
	d.Start()
	d.Enter(watchdog.Phase{What: initWhat, Limit: initLimit(c.Flags.watch.size)})
	return d
}

// invocation is what every rank of a job must share: gomb's version, the
// command and its arguments.
func (c *Command) invocation() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gomb %s %s", c.Version, c.Name)
	for _, a := range c.Args {
		if a == "" || strings.ContainsFunc(a, func(r rune) bool { return r <= ' ' || strings.ContainsRune(`"'\\$`, r) || r > '~' }) {
			a = strconv.Quote(a)
		}
		b.WriteString(" " + a)
	}
	return b.String()
}

// agreeOnStart is the first thing the ranks exchange, before any other
// collective and before a command line that did not parse is reported:
// every rank must run the same gomb with the same arguments, or the ranks
// would wait in different collectives for good (one in a gather, another
// in MPI_Finalize). Rank 0's digest goes to every rank, which compares
// its own; when any differs, the ones that differ send rank 0 their
// command lines and rank 0 names them in one line (exit status 2). A rank
// that never gets here (it ended before MPI_Init, as a rank given -help
// alone does, or runs a gomb from before this exchange) leaves the others
// waiting: the one that sees the deadline pass says so and ends the job.
func (s *Session) agreeOnStart(dog *watchdog.Dog) error {
	dog.Enter(watchdog.Phase{What: agreeWhat, Limit: agreeLimit(s.initTook, s.cmd.Flags.watch.size)})
	defer dog.Stop()
	me := s.cmd.invocation()
	sum := sha256.Sum256([]byte(me))
	root := sum
	if err := s.World.BcastFixed(root[:], 0); err != nil {
		s.startFailed(err)
	}
	differs := 0
	if root != sum {
		differs = 1
	}
	n, err := s.World.MaxInt(differs)
	if err != nil {
		s.startFailed(err)
	}
	if n == 0 {
		return nil
	}
	var send []byte
	if differs == 1 || s.Rank == 0 {
		send = []byte(me)
	}
	all, err := s.World.GathervBytes(send, 0)
	if err != nil {
		s.startFailed(err)
	}
	if s.Rank != 0 {
		return cli.Reported{Code: cli.ExitUsage}
	}
	var odd []int
	for r, b := range all {
		if r > 0 && len(b) > 0 {
			odd = append(odd, r)
		}
	}
	more := ""
	if len(odd) > 1 {
		more = fmt.Sprintf(" (%d of %d ranks differ from rank 0: %s)", len(odd), s.Size, watchdog.Ranks(odd))
	}
	return s.Fail(cli.Usage("the ranks were started differently: rank %d runs %s, rank 0 %s%s; start every rank with the same gomb and arguments",
		odd[0], all[odd[0]], all[0], more))
}

// startFailed ends the job when the ranks could not compare their
// command lines (an MPI error: a rank in another collective): a line
// from this rank, then MPI_Abort, and exit by itself if even that does
// not return.
func (s *Session) startFailed(err error) {
	host, _ := os.Hostname()
	fmt.Fprintf(s.stderr, "gomb %s: rank %d on %s: the ranks could not agree on their command line (%v): every process of the job must run the same gomb with the same arguments; ending the job\n",
		s.cmd.Name, s.Rank, host, err)
	time.Sleep(500 * time.Millisecond)
	go mpi.Abort(cli.ExitUsage)
	time.Sleep(5 * time.Second)
	os.Exit(cli.ExitUsage)
}
