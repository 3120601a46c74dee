package e2e

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/result"
)

// checkFleet checks a sweep's records: a latency and a bandwidth row for
// every pair of nodes (each of nodes with every other, once a sweep),
// their samples kept, the pair's hosts and ranks those of the run record,
// its locality loc.
func checkFleet(t *testing.T, s stream, nodes []string, sweeps int, loc string) {
	t.Helper()
	if len(s.bad) > 0 || s.run == nil || s.end == nil || s.end.Status != result.EndComplete {
		t.Fatalf("records: %v, run %v, end %+v", s.bad, s.run != nil, s.end)
	}
	rankHost := s.run.RankHosts()
	seen := map[string]int{}
	for _, r := range s.results {
		p := r.Pair
		if r.Suite != fleet.Suite || p == nil || r.Status != result.StatusOK || len(r.SamplesUS) != 1 || len(r.SamplesUS[0]) == 0 ||
			r.Repetitions != len(r.SamplesUS[0]) || r.Locality != loc {
			t.Fatalf("row %+v", r)
		}
		if rankHost[p.Ranks[0]] != p.Hosts[0] || rankHost[p.Ranks[1]] != p.Hosts[1] || r.Ranks[0] != p.Ranks[0] {
			t.Errorf("pair %+v: ranks' hosts %s and %s", p, rankHost[p.Ranks[0]], rankHost[p.Ranks[1]])
		}
		switch r.Benchmark {
		case fleet.Latency:
			if !(r.P50US > 0) || r.Bytes != 8 {
				t.Errorf("latency row %+v", r)
			}
		case fleet.Bandwidth:
			if !(r.MBps > 0) || r.Bytes == 0 {
				t.Errorf("bandwidth row %+v", r)
			}
		}
		ab := []string{fleet.NodeOf(p, 0, false), fleet.NodeOf(p, 1, false)}
		slices.Sort(ab)
		seen[r.Benchmark+" "+strings.Join(ab, " ")]++
	}
	want := 0
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			ab := []string{a, b}
			slices.Sort(ab)
			for _, bench := range []string{fleet.Latency, fleet.Bandwidth} {
				want++
				if n := seen[bench+" "+strings.Join(ab, " ")]; n != sweeps {
					t.Errorf("%s of %s and %s: %d rows, want %d", bench, a, b, n, sweeps)
				}
			}
		}
	}
	if len(s.results) != want*sweeps {
		t.Errorf("%d rows, want %d", len(s.results), want*sweeps)
	}
}

// fleetCulprits are gomb explain's fleet warnings on a sweep's records,
// "fleet-node: ..." and "fleet-link: ...".
func fleetCulprits(t *testing.T, file string) []string {
	t.Helper()
	var out []string
	for _, f := range explainFindings(t, file) {
		if strings.HasPrefix(f, "fleet-node: ") || strings.HasPrefix(f, "fleet-link: ") {
			out = append(out, f)
		}
	}
	return out
}

// TestFleet: a sweep over 4 ranks, each a node of its own (-by-rank), with
// both MPIs: every pair's rows, the text's line a pair, and a sweep of
// one node refused in one line. Another program talks over lo meanwhile:
// explain must not say the pairs talked through it (they share memory).
// -resume of a file that holds the cut sweep twice measures and writes
// each pair once; on other nodes it is refused. -sweeps 100000000 runs
// until -deadline (every sweep planned up front took all memory). A rank
// stuck in its latency loop is named by the watchdog with its pair and
// loop, and the pair done beside it keeps its rows.
func TestFleet(t *testing.T) {
	for i, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			stop := loopbackTalk(t)
			j := launchCmd(t, m, 4, 2*time.Minute, nil, "fleet", "-by-rank", "-i", "50", "-bw-iter", "3", "-sweeps", "2", "-json", out)
			stop()
			checkNoCrash(t, j)
			if j.code != 0 {
				t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
			}
			s := readRecords(t, out)
			var hosts []string
			for r, h := range s.run.RankHosts() {
				hosts = append(hosts, fmt.Sprintf("%s:%d", h, r))
			}
			checkFleet(t, s, hosts, 2, result.IntraNode)
			for _, f := range explainFindings(t, out) {
				if strings.HasPrefix(f, "nic: ") {
					t.Errorf("explain: %s", f)
				}
			}
			if n := strings.Count(j.stdout, "\n  "); n != 12 || !strings.Contains(j.stdout, "# Schedule  : 3 rounds, 6 pairs, up to 2 pairs at once; 2 sweeps") {
				t.Errorf("%d pair lines, want 12:\n%s", n, j.stdout)
			}
			// a sweep cut short after 5 pairs and half of the 6th (no end
			// record): -resume measures the 7 others, and its records hold
			// the whole sweep
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			cut := filepath.Join(t.TempDir(), "cut.jsonl")
			if err := os.WriteFile(cut, []byte(strings.Repeat(strings.Join(lines[:1+11], ""), 2)), 0o644); err != nil {
				t.Fatal(err)
			}
			again := filepath.Join(t.TempDir(), "again.jsonl")
			j = launchCmd(t, m, 4, 2*time.Minute, nil, "fleet", "-by-rank", "-i", "50", "-bw-iter", "3", "-sweeps", "2", "-resume", cut, "-json", again)
			if checkNoCrash(t, j); j.code != 0 {
				t.Fatalf("-resume: exit %d\n%s", j.code, tail(j.stderr))
			}
			s2 := readRecords(t, again)
			checkFleet(t, s2, hosts, 2, result.IntraNode)
			for i, r := range s2.results[:10] {
				if r.TAvgUS != s.results[i].TAvgUS || r.RunID != s2.run.RunID {
					t.Errorf("resumed row %d: %s %g (run %s), was %g", i, r.Benchmark, r.TAvgUS, r.RunID, s.results[i].TAvgUS)
				}
			}
			if !strings.Contains(j.stdout, "# Resumed   : 5 of 12 pairs measured by run "+s.run.RunID) {
				t.Errorf("text:\n%s", j.stdout)
			}
			j = launchCmd(t, m, 4, time.Minute, nil, "fleet", "-by-rank", "-sweeps", "2", "-resume", cut)
			checkUsageError(t, j, "its sweep ran with other flags")
			j = launchCmd(t, m, 5, time.Minute, nil, "fleet", "-by-rank", "-i", "50", "-bw-iter", "3", "-sweeps", "2", "-resume", cut)
			checkUsageError(t, j, "its sweep ran on 4 nodes, this job on 5, and node ")
			if i == 1 {
				huge := filepath.Join(t.TempDir(), "huge.jsonl")
				j = launchCmd(t, m, 2, time.Minute, nil, "fleet", "-by-rank", "-i", "10", "-bw-iter", "1", "-sweeps", "100000000", "-deadline", "3", "-json", huge)
				if checkNoCrash(t, j); j.code != exitWatchdog || !strings.Contains(j.stderr, "the run passed its deadline of 3s") {
					t.Errorf("-sweeps 100000000: exit %d\n%s", j.code, tail(j.stderr))
				}
				if s := readRecords(t, huge); s.end == nil || s.end.Status != result.EndDeadline || len(s.results) < 4 {
					t.Errorf("-sweeps 100000000: %d rows, end %+v", len(s.results), s.end)
				}
			}
			j = launchCmd(t, m, 2, time.Minute, nil, "fleet")
			checkUsageError(t, j, "a fleet sweep needs ranks on at least 2 nodes, all 2 ranks are on")
			// rank 3 stuck before its latency loop of round 1: rank 0 names
			// that loop and its pair, and keeps the rows of the pair that
			// finished beside it
			stuck := filepath.Join(t.TempDir(), "stuck.jsonl")
			j = launchCmd(t, m, 4, time.Minute, []string{"GOMB_FAULT=hang:8:3"}, "fleet", "-by-rank", "-i", "50", "-bw-iter", "3", "-watchdog", "5", "-json", stuck)
			want := fmt.Sprintf("gomb fleet: rank 0 on %s: watchdog: pair_latency of %s - %s, np 2, 8 bytes in flight", hosts[0][:strings.LastIndex(hosts[0], ":")], hosts[2], hosts[3])
			if checkNoCrash(t, j); j.code != exitWatchdog || !strings.Contains(j.stderr, want) || !strings.Contains(j.stderr, "(ranks 2-3 on ") {
				t.Errorf("a stuck rank: exit %d, want 5 and %q\n%s", j.code, want, tail(j.stderr))
			}
			if s := readRecords(t, stuck); s.end == nil || s.end.Status != result.EndDeadline || len(s.results) != 2 || s.results[0].Pair.Ranks != [2]int{0, 1} {
				t.Errorf("a stuck rank: %d rows (want round 1's other pair), end %+v", len(s.results), s.end)
			}
		})
	}
}

// byLatency says whether want is a link named by latency: under load a
// 500 µs link can go unnamed in one sweep (a rank that shares a core with
// another process waits out a time slice, 2 ms, on some round trips: its
// node is named by latency and explains the link away, or the fleet's own
// typical latency rises), so TestTestbedFleet sweeps again then, twice at
// most.
func byLatency(want string) bool {
	return strings.HasPrefix(want, "fleet-link: link ") && strings.HasSuffix(want, ": latency")
}

// TestTestbedFleet: six emulated hosts, Open MPI: healthy sweeps (twice)
// hold every pair; one link shaped to 200 Mbit/s is named; one link
// delayed 500 µs and one host's interface slowed to 300 Mbit/s for all its
// pairs are named, the link by latency and the host by bandwidth. That
// nothing else is named is a bound load breaks (six ranks on two cores
// beside a busy one: some pairs' every round trip waits out a time slice,
// 2 ms, in every sweep): make bench-fleet measures the false names on an
// idle machine, and here they are only logged. MPICH sweeps the same hosts
// and its records hold every pair (its ranks busy-poll, so its times
// measure the scheduler).
func TestTestbedFleet(t *testing.T) {
	b := testbed.Start(t, 6, "gtbf-")
	var hosts []string
	for i := 1; i <= 6; i++ {
		hosts = append(hosts, b.Host(i))
	}
	all := strings.Join(hosts, ",")
	// Open MPI spins in MPI calls unless told the cores are shared: six
	// ranks on two cores would measure the scheduler
	yield := []string{"OMPI_MCA_mpi_yield_when_idle=1"}
	sweep := func(t *testing.T, run string, lib mpiLib, env []string) (stream, string) {
		out := filepath.Join(t.TempDir(), "fleet.jsonl")
		// three sweeps of short loops (-watchdog 10: each loop is cut to
		// 0.2 s, and MPICH's hang in MPI_Finalize, finalizeHang, waits
		// it out): a pair is named when each sweep
		// finds it slow (a two-core VM's scheduler makes one sweep's
		// pairs up to 3x slower now and then)
		j := bedJobEnv(t, b, run, lib, all, 6, 3*time.Minute, env, "fleet", "-sweeps", "3", "-i", "300", "-bw", "256k", "-budget", "0.2s",
			"-watchdog", "10", "-json", out)
		s := readRecords(t, out)
		if j.code != 0 && !finalizeHang(j, s, run) {
			t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
		}
		checkNoCrash(t, j)
		checkFleet(t, s, hosts, 3, result.InterNode)
		return s, out
	}
	h := func(i int) string { return b.Host(i) }
	cases := []struct {
		name  string
		shape [][]string // testbed.sh commands before the sweep
		undo  [][]string
		want  []string // "fleet-link: link A - B: bandwidth", "fleet-node: node A: bandwidth"
	}{
		{"healthy", nil, nil, nil},
		{"slow link", [][]string{{"shape-link", h(2), h(5), "0", "200mbit"}}, [][]string{{"unshape-link", h(2), h(5)}},
			[]string{"fleet-link: link " + h(2) + " - " + h(5) + ": bandwidth"}},
		{"long link and slow node", [][]string{{"shape-link", h(1), h(4), "500", "none"}, {"shape", h(3), "0", "300mbit"}},
			[][]string{{"unshape-link", h(1), h(4)}, {"unshape", h(3)}},
			[]string{"fleet-link: link " + h(1) + " - " + h(4) + ": latency", "fleet-node: node " + h(3) + ": bandwidth"}},
	}
	for _, c := range cases {
		t.Run("ompi/"+c.name, func(t *testing.T) {
			for _, cmd := range c.shape {
				b.Must(t, cmd...)
			}
			defer func() {
				for _, cmd := range c.undo {
					b.Must(t, cmd...)
				}
			}()
			// each want named; anything else is logged (a link cut to
			// 200 Mbit/s may be slow by latency too, and load names pairs)
			var got []string
			for sweeps := 1; ; sweeps++ {
				_, out := sweep(t, "ompi", mpis[0], yield)
				got = fleetCulprits(t, out)
				var missed []string
				for _, w := range c.want {
					if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
						missed = append(missed, w)
					}
				}
				// again only when every miss is a link named by latency
				again := len(missed) > 0 && sweeps < 3
				for _, w := range missed {
					again = again && byLatency(w)
				}
				if again {
					t.Logf("run %d: %q not named (load; named %q): again", sweeps, missed, got)
					continue
				}
				for _, w := range missed {
					t.Errorf("named %q, want %q", got, w)
				}
				break
			}
			for _, g := range got {
				if !slices.ContainsFunc(c.want, func(w string) bool { return strings.HasPrefix(g, w[:strings.LastIndex(w, ": ")]) }) {
					t.Logf("also named (load, or the shaping's side effect): %s", g)
				}
			}
		})
	}
	t.Run("mpich", func(t *testing.T) {
		s, _ := sweep(t, "mpich", mpis[1], nil)
		for _, r := range s.results {
			if r.Benchmark == fleet.Bandwidth && !slices.ContainsFunc(r.NIC, func(n result.NICTraffic) bool { return n.Name == "eth0" && n.TxBytes+n.RxBytes > 1<<20 }) {
				t.Errorf("pair %v: no eth0 traffic counted: %+v", r.Pair.Hosts, r.NIC)
			}
		}
	})
}

// loopbackTalk has another program's bytes cross lo (about 30 MB/s, a
// TCP connection on 127.0.0.1) until stop is called.
func loopbackTalk(t *testing.T) (stop func()) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		c, err := l.Accept()
		if err == nil {
			_, _ = io.Copy(io.Discard, c)
			c.Close()
		}
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 1<<20)
		for {
			select {
			case <-done:
				c.Close()
				return
			case <-time.After(30 * time.Millisecond):
				if _, err := c.Write(buf); err != nil {
					return
				}
			}
		}
	}()
	return func() { close(done); l.Close() }
}
