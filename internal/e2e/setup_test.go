package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/result"
)

// TestSetupAsPeers: each suite initialises MPI as its peer program does
// and says so in the run record (the call, the level provided, the buffer
// scheme), with both MPIs; every size of a default run carries the
// precision its samples reached.
func TestSetupAsPeers(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, c := range []struct {
				sub     string
				args    []string
				init    string
				thread  string
				buffers string
			}{
				{"imb", []string{"-msglog", "0:3", "-iter", "50", "-iter_policy", "off", "PingPong", "Exchange", "Allreduce"},
					"MPI_Init_thread", "MPI_THREAD_SINGLE", "imb"},
				{"imb", []string{"-msglog", "0:3", "-iter", "50", "-thread_level", "funneled", "-buffers", "page", "PingPong"},
					"MPI_Init_thread", "MPI_THREAD_FUNNELED", "page"},
				{"osu", []string{"latency", "-m", "1:8", "-i", "50", "-x", "5"}, "MPI_Init", "MPI_THREAD_SINGLE", ""},
			} {
				out := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", c.sub, len(c.args)))
				j := launchCmd(t, m, 2, 2*time.Minute, nil, c.sub, append(c.args, "-json", out)...)
				checkNoCrash(t, j)
				if j.code != 0 {
					t.Fatalf("%s %v: exit %d\n%s", c.sub, c.args, j.code, tail(j.stderr))
				}
				s := readRecords(t, out)
				if s.run == nil || s.run.MPI.Init != c.init || s.run.MPI.Thread != c.thread {
					t.Fatalf("%s %v: mpi %+v, want %s providing %s", c.sub, c.args, s.run.MPI, c.init, c.thread)
				}
				if c.buffers != "" {
					var o imb.Options
					if err := json.Unmarshal(*s.run.Options.(*json.RawMessage), &o); err != nil {
						t.Fatal(err)
					}
					if o.Buffers.String() != c.buffers {
						t.Errorf("%v: options say buffers %v, want %s", c.args, o.Buffers, c.buffers)
					}
				}
				for _, r := range s.results {
					if r.Status == result.StatusOK && len(r.SamplesUS) > 0 && len(r.SamplesUS[0]) >= 8 &&
						(r.Precision == nil || !(*r.Precision >= 0)) {
						t.Errorf("%s %s %d B: %d samples a rank but precision %v", c.sub, r.Benchmark, r.Bytes,
							len(r.SamplesUS[0]), r.Precision)
					}
				}
			}
		})
	}
}

// TestPrecisionPolicy: -iter_policy precision runs growing batches (32,
// then doubling) until every timing rank's median is known within the
// target or IMB's count is reached; the count, the samples and the
// precision agree in the records, and the table gains a precision column.
func TestPrecisionPolicy(t *testing.T) {
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "p.jsonl")
			j := launch(t, m, 2, 3*time.Minute, nil, "-iter_policy", "precision", "-precision", "10%",
				"-iter", "400", "-msglog", "0:6", "-json", out, "PingPong", "Sendrecv", "Allreduce", "Barrier")
			checkNoCrash(t, j)
			if j.code != 0 {
				t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
			}
			if !strings.Contains(j.stdout, "precision[%]") {
				t.Errorf("no precision column:\n%s", tail(j.stdout))
			}
			s := readRecords(t, out)
			if len(s.results) == 0 || len(s.bad) > 0 {
				t.Fatalf("%d results, errors %v", len(s.results), s.bad)
			}
			for _, r := range s.results {
				n := r.Repetitions
				if !(n == 400 || n == 32<<bitsBelow(n/32)) {
					t.Errorf("%s %d B: %d repetitions, neither 32·2^k nor the cap 400", r.Benchmark, r.Bytes, n)
				}
				for i, ss := range r.SamplesUS {
					if len(ss) != n {
						t.Errorf("%s %d B: rank %d has %d samples for %d repetitions", r.Benchmark, r.Bytes, r.Ranks[i], len(ss), n)
					}
				}
				if r.Precision == nil {
					t.Errorf("%s %d B: no precision", r.Benchmark, r.Bytes)
				} else if n < 400 && *r.Precision > 0.10*(1+1e-9) {
					// the engine decides on seconds, the record is computed
					// on µs: the same value may round to either side of 10%
					t.Errorf("%s %d B: stopped at %d repetitions with precision %.3f above the 10%% target", r.Benchmark, r.Bytes, n, *r.Precision)
				}
			}
		})
	}
}

// bitsBelow is floor(log2(x)) for x >= 1 (0 for x < 1).
func bitsBelow(x int) int {
	k := 0
	for x > 1 {
		x >>= 1
		k++
	}
	return k
}

// TestTransportVars: the run record keeps what the library was asked to
// use, as MPI_T reads it: with Open MPI a parameter file's setting, which
// the environment does not show, beside the launcher's --mca; with MPICH
// its MPIR_CVAR_ variables from the environment.
func TestTransportVars(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "mca-params.conf")
	if err := os.WriteFile(conf, []byte("mtl = ^ofi,psm\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			env := []string{"OMPI_MCA_mca_base_param_files=" + conf + ",/etc/openmpi/openmpi-mca-params.conf",
				"MPIR_CVAR_CH4_NETMOD=ucx"}
			j := launch(t, m, 2, time.Minute, env, "-msglog", "2", "-iter", "10", "-iter_policy", "off", "-json", out, "PingPong")
			if j.code != 0 {
				t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
			}
			run := readRecords(t, out).run
			switch m.name {
			case "openmpi":
				if run.MPI.Vars["mtl"] != "^ofi,psm" || run.MPI.Vars["btl"] != "self,vader" || run.Env["OMPI_MCA_mtl"] != "" {
					t.Errorf("vars %v, OMPI_MCA_mtl %q", run.MPI.Vars, run.Env["OMPI_MCA_mtl"])
				}
			case "mpich":
				if run.Env["MPIR_CVAR_CH4_NETMOD"] != "ucx" {
					t.Errorf("env %v", run.Env)
				}
			}
		})
	}
}
