//go:build cgo

package session

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// jsonEnv names the record file of TestSessionRecords' job.
const jsonEnv = "GOMB_SESSIONTEST_JSON"

func TestMain(m *testing.M) {
	if os.Getenv(testutil.RankEnv) == "1" {
		os.Exit(rankMain())
	}
	os.Exit(m.Run())
}

// text is a suite's text writer reduced to a line a row.
type text struct{ w *bufio.Writer }

func (t text) Flush() error { return t.w.Flush() }

func (t text) Result(r *result.Result) error {
	_, err := fmt.Fprintf(t.w, "row %s %d\n", r.Benchmark, r.Bytes)
	return err
}

// rows is how many rows the job's sweep hands over.
const rows = 3

// rankMain is one rank of TestSessionRecords' job: a session that opens
// the records, measures a sweep whose rank 0 hands over rows, writes a
// footer and ends.
func rankMain() int {
	c := &Command{Name: "sessiontest", Suite: "imb", Level: kernel.ThreadSingle, Version: "test", Args: []string{"-json", "r.jsonl"},
		Flags: &Flags{JSON: os.Getenv(jsonEnv)}, Help: func(io.Writer) {}}
	rank := -1
	err := Run(c, nil, os.Stdout, os.Stderr, func(s *Session) error {
		rank = s.Rank
		t, run, err := Open(s, map[string]int{"option": 7}, os.Stdout, func(w io.Writer) text { return text{bufio.NewWriter(w)} })
		if err != nil {
			return s.Fail(err)
		}
		if (run != nil) != (s.Rank == 0) {
			return s.Fail(fmt.Errorf("rank %d has a run record: %v", s.Rank, run != nil))
		}
		return s.Measure(Sweep{Run: func() (int, error) {
			for i := 0; i < rows && s.Rank == 0; i++ {
				r := &result.Result{Suite: "imb", Benchmark: "PingPong", RunID: s.RunID(), NP: s.Size, Bytes: int64(i), Status: result.StatusOK}
				if err := s.Result(r, t.Result); err != nil {
					return 0, err
				}
			}
			return 0, s.World.Barrier()
		}, Footer: func() error { _, err := fmt.Fprintln(t.w, "footer"); return err }})
	})
	if err != nil {
		fmt.Println("FAIL rank", rank, err)
		return 1
	}
	if rank == 0 {
		fmt.Println("done")
	}
	return 0
}

// TestSessionRecords runs a session in real jobs of 2 and 4 ranks with
// the MPI gomb is built for: the text (rows, then the footer) and the
// records (a run record with every rank's host and the MPI library, the
// rows in order with the run's id, an end record counting them).
func TestSessionRecords(t *testing.T) {
	for _, np := range testutil.ShortRanks(2, 4) {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			out := testutil.LaunchSelf(t, mpi.Family(), np, 2*time.Minute, jsonEnv+"="+path)
			if want := "row PingPong 0\nrow PingPong 1\nrow PingPong 2\nfooter\ndone\n"; !strings.HasSuffix(out, want) {
				t.Errorf("text:\n%s\nwant it to end:\n%s", out, want)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var run *result.Run
			var got []*result.Result
			var end *result.End
			for d := result.NewDecoder(f, path); d.Scan(); {
				switch r := d.Record().(type) {
				case *result.Run:
					run = r
				case *result.Result:
					got = append(got, r)
				case *result.End:
					end = r
				default:
					t.Errorf("record %d: %v", d.Line(), r)
				}
			}
			switch {
			case run == nil || end == nil:
				t.Fatalf("run record %v, end record %v", run != nil, end != nil)
			case run.WorldSize != np || len(run.RankHosts()) != np || run.MPI.Impl != mpi.Family() || run.Suite != "imb":
				t.Errorf("run record: world %d, %d rank hosts, MPI %q, suite %q", run.WorldSize, len(run.RankHosts()), run.MPI.Impl, run.Suite)
			case len(got) != rows || end.Results != rows || end.Status != result.EndComplete:
				t.Errorf("%d rows, end record %+v", len(got), end)
			}
			for i, r := range got {
				if r.RunID != run.RunID || r.Bytes != int64(i) {
					t.Errorf("row %d: run id %q of %q, %d bytes", i, r.RunID, run.RunID, r.Bytes)
				}
			}
		})
	}
}

// TestFinalizeLimit: MPI_Finalize gets 2 s plus ten times MPI_Init's time,
// never more than 30 s.
func TestFinalizeLimit(t *testing.T) {
	for _, c := range []struct{ init, want time.Duration }{
		{0, 2 * time.Second},
		{150 * time.Millisecond, 3500 * time.Millisecond},
		{2 * time.Second, 22 * time.Second},
		{2800 * time.Millisecond, 30 * time.Second},
		{time.Minute, 30 * time.Second},
	} {
		if got := finalizeLimit(c.init); got != c.want {
			t.Errorf("MPI_Init %v: %v, want %v", c.init, got, c.want)
		}
	}
}
