package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// mpiErrorCase is a job of several benchmarks in which one meets an MPI
// error (GOMB_FAULT=mpi-error): failed at size bytes, after before rows;
// later one that runs after it, with sizes rows (IMB's Allreduce of
// floats: 0 and 4 bytes of -msglog 0:2; IMB-P2P's sizes start at 1).
type mpiErrorCase struct {
	sub, failed string
	bytes       int64
	before      int // rows of failed measured before the error
	later       string
	sizes       int
	env         []string
	args        []string
}

var mpiErrorCases = []mpiErrorCase{
	{"osu", "allreduce", 4, 2, "bcast", 4, nil, []string{"latency", "allreduce", "bcast", "-m", "1:8", "-i", "10", "-x", "1"}},
	{"imb", "Sendrecv", 2, 2, "Allreduce", 2, nil, []string{"-msglog", "0:2", "-iter", "10", "-iter_policy", "off", "PingPong", "Sendrecv", "Allreduce"}},
	{"imb-p2p", "PingPing", 2, 1, "Unirandom", 3, nil, []string{"-msglog", "0:2", "-iter", "10,1", "-pause", "0", "PingPong", "PingPing", "Unirandom"}},
	{"imb-mt", "SendRecvMT", 4, 1, "BcastMT", 2, []string{"OMP_NUM_THREADS=1"},
		[]string{"-count", "1,4", "-datatype", "char", "-repeat", "5", "-warmup", "1", "PingPongMT", "SendRecvMT", "BcastMT"}},
}

// TestMPIErrorContained: in a job of several benchmarks, an MPI error
// that every rank meets in one (GOMB_FAULT=mpi-error, a call the library
// refuses) ends that benchmark only, with both MPIs and in every engine
// that runs a list: the benchmark's row of status mpi-error with the
// error as its reason (its sizes before kept), its line in the text, one
// line from rank 0 on stderr, the later benchmarks measured, the records
// complete and exit status 6. The same error on one rank only ends the job
// as any MPI error does, within bounded time.
func TestMPIErrorContained(t *testing.T) {
	for _, m := range mpis {
		for _, c := range mpiErrorCases {
			t.Run(m.name+"/"+c.sub, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				fault := fmt.Sprintf("GOMB_FAULT=mpi-error:%s:%d", c.failed, c.bytes)
				j := launchCmd(t, m, 2, 2*time.Minute, append([]string{fault}, c.env...), c.sub, append(c.args, "-json", out)...)
				checkNoCrash(t, j)
				if j.code != exitNotRun {
					t.Fatalf("exit %d, want %d\n%s\n%s", j.code, exitNotRun, tail(j.stdout), tail(j.stderr))
				}
				line := fmt.Sprintf("gomb %s: %s: MPI error at np 2, %d bytes, on every rank: MPI_Send (GOMB_FAULT=mpi-error): MPI error ", c.sub, c.failed, c.bytes)
				if strings.Count(j.stderr, line) != 1 || strings.Count(j.stderr, "; the other tests go on\n") != 1 {
					t.Errorf("want once %q on stderr:\n%s", line, tail(j.stderr))
				}
				if want := fmt.Sprintf("# mpi-error: %s, np 2, %d bytes: MPI_Send (GOMB_FAULT=mpi-error): MPI error ", c.failed, c.bytes); strings.Count(j.stdout, want) != 1 {
					t.Errorf("want once %q in the text:\n%s", want, j.stdout)
				}
				st := readRecords(t, out)
				if len(st.bad) > 0 || st.end == nil || st.end.Status != result.EndComplete || st.end.Results != len(st.results) {
					t.Fatalf("records: errors %v, end %+v, %d results", st.bad, st.end, len(st.results))
				}
				var ok, failed, later int
				for _, r := range st.results {
					switch {
					case r.Benchmark == c.failed && r.Status == result.StatusMPIError:
						failed++
						if r.Bytes != c.bytes || r.NP != 2 || r.Suite != st.run.Suite || !strings.HasPrefix(r.Reason, "MPI_Send (GOMB_FAULT=mpi-error): MPI error ") ||
							strings.Contains(r.Reason, "\n") {
							t.Errorf("the failed benchmark's row: %+v", r)
						}
					case r.Benchmark == c.failed && r.Status == result.StatusOK:
						ok++
					case r.Benchmark == c.later && r.Status == result.StatusOK:
						later++
					}
				}
				if failed != 1 || ok != c.before || later != c.sizes {
					t.Errorf("%s: %d mpi-error rows (want 1), %d measured before it (want %d); %s: %d rows (want %d)",
						c.failed, failed, ok, c.before, c.later, later, c.sizes)
				}
				if c.sub == "osu" && (!strings.Contains(j.stdout, "# gomb osu: 2 of 3 tests run, 0 not run, 0 failed validation, 1 ended by an MPI error\n") ||
					!strings.Contains(j.stdout, "# mpi error: allreduce 4 bytes: MPI_Send (GOMB_FAULT=mpi-error): MPI error ")) {
					t.Errorf("osu's summary:\n%s", j.stdout)
				}
			})
		}
		t.Run(m.name+"/one rank only", func(t *testing.T) {
			// rank 1 alone: rank 0 waits inside allreduce for it, and rank 1
			// ends the job after waiting for rank 0 in vain (10 s)
			out := filepath.Join(t.TempDir(), "r.jsonl")
			start := time.Now()
			j := launchCmd(t, m, 2, 2*time.Minute, []string{"GOMB_FAULT=mpi-error:allreduce:4:1"}, "osu", "latency", "allreduce", "bcast",
				"-m", "1:8", "-i", "10", "-x", "1", "-json", out)
			took := time.Since(start)
			checkNoCrash(t, j)
			if j.code == 0 || j.code == exitNotRun || took > 60*time.Second {
				t.Errorf("exit %d after %v, want a failure within 60 s", j.code, took.Round(100*time.Millisecond))
			}
			if !strings.Contains(j.stderr, "gomb osu: rank 1: allreduce: allreduce 4 bytes: MPI_Send (GOMB_FAULT=mpi-error): MPI error ") ||
				strings.Contains(j.stderr, "the other tests go on") {
				t.Errorf("stderr:\n%s", tail(j.stderr))
			}
			st := readRecords(t, out)
			for _, r := range st.results {
				if r.Benchmark == "bcast" || r.Status != result.StatusOK {
					t.Errorf("a row past the error: %s %d B %s", r.Benchmark, r.Bytes, r.Status)
				}
			}
			t.Logf("%s: exit %d after %v", m.name, j.code, took.Round(100*time.Millisecond))
		})
	}
}
