package e2e

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/p2p"
	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

// TestP2PConformance runs all of IMB-P2P's benchmarks with both MPIs at 2
// and 4 ranks and checks every record: one per size of every benchmark
// that runs at that count, IMB-P2P's iterations, every rank's loop time
// and samples, IMB-P2P's row (t, Mbytes/sec and Msg/sec agreeing), and a
// table or an invalid line for each benchmark.
func TestP2PConformance(t *testing.T) {
	for _, m := range mpis {
		for _, np := range testutil.ShortRanks(2, 4) {
			t.Run(fmt.Sprintf("%s/np%d", m.name, np), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				j := launchCmd(t, m, np, 5*time.Minute, nil, "imb-p2p", "-msglog", "3", "-iter", "40,1", "-pause", "0",
					"-json", out)
				checkNoCrash(t, j)
				if j.code != 0 {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || s.run == nil || s.run.Suite != p2p.Suite || s.end == nil || s.end.Status != result.EndComplete {
					t.Fatalf("records: bad %v, run %+v, end %+v", s.bad, s.run, s.end)
				}
				o := p2p.DefaultOptions()
				o.IterMax, o.IterBytes = 40, 1<<20
				sizes := []int64{0, 1, 2, 4, 8}
				i := 0
				for _, sp := range p2p.Specs() {
					if !sp.Runs(np) {
						if !strings.Contains(j.stdout, sp.InvalidLine(np)) {
							t.Errorf("%s: no invalid line %q", sp.Name, sp.InvalidLine(np))
						}
						continue
					}
					if !strings.Contains(j.stdout, "# Benchmarking "+sp.Title(np)+"\n") {
						t.Errorf("%s: no table %q", sp.Name, sp.Title(np))
					}
					for _, size := range sizes {
						if i >= len(s.results) {
							t.Fatalf("records end before %s %d B", sp.Name, size)
						}
						checkP2PRow(t, s.results[i], sp, np, size, &o)
						i++
					}
				}
				if i != len(s.results) {
					t.Errorf("%d records, want %d", len(s.results), i)
				}
				checkColumns(t, j.stdout)
			})
		}
	}
}

func checkP2PRow(t *testing.T, r *result.Result, sp *p2p.Spec, np int, size int64, o *p2p.Options) {
	t.Helper()
	where := fmt.Sprintf("%s np=%d %d B", sp.Name, np, size)
	n, _ := o.Iterations(size)
	if r.Benchmark != sp.Name || r.NP != np || r.Bytes != size || r.Suite != p2p.Suite || r.Status != result.StatusOK {
		t.Fatalf("%s: record %s np=%d %d B suite %s status %s", where, r.Benchmark, r.NP, r.Bytes, r.Suite, r.Status)
	}
	if r.Repetitions != n || len(r.Ranks) != np || len(r.SamplesUS) != np {
		t.Errorf("%s: %d repetitions (want %d), %d ranks, %d sample sets", where, r.Repetitions, n, len(r.Ranks), len(r.SamplesUS))
	}
	for k, ss := range r.SamplesUS {
		sum := 0.0
		for _, x := range ss {
			sum += x
		}
		if len(ss) != n || math.Abs(sum/float64(n)-r.RankMeanUS[k]) > 1e-3 {
			t.Errorf("%s: rank %d: %d samples averaging %g, mean %g", where, k, len(ss), sum/float64(max(n, 1)), r.RankMeanUS[k])
		}
	}
	// IMB-P2P's row: one t; Mbytes/sec is Msg/sec times the size
	if r.TAvgUS <= 0 || r.TMinUS != r.TAvgUS || r.TMaxUS != r.TAvgUS || r.MsgPerSec <= 0 ||
		math.Abs(r.MBps-r.MsgPerSec*float64(size)/1e6) > 1e-9*max(1, r.MBps) {
		t.Errorf("%s: t %g/%g/%g, %g MB/s, %g msg/s", where, r.TMinUS, r.TAvgUS, r.TMaxUS, r.MBps, r.MsgPerSec)
	}
}
