package e2e

// Tests on emulated hosts (scripts/testbed.sh via internal/testbed): ranks
// in separate network namespaces, talking TCP over a private bridge, with
// both MPIs. They need root; ./scripts/test.sh requires them.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/result"
)

// bedMPIs pairs testbed.sh's launcher names with the test binaries.
var bedMPIs = []struct {
	run string
	lib mpiLib
}{{"ompi", mpis[0]}, {"mpich", mpis[1]}}

// bedJob runs gomb on the testbed and waits at most limit for the launcher.
func bedJob(t *testing.T, b *testbed.Bed, mpi string, lib mpiLib, hosts string, np int, limit time.Duration, args ...string) job {
	t.Helper()
	return bedJobEnv(t, b, mpi, lib, hosts, np, limit, nil, args...)
}

// bedJobEnv is bedJob with more of the launcher's environment.
func bedJobEnv(t *testing.T, b *testbed.Bed, mpi string, lib mpiLib, hosts string, np int, limit time.Duration, env []string, args ...string) job {
	t.Helper()
	cmd := b.Launch(mpi, hosts, np, filepath.Join(binDir, lib.bin), args...)
	cmd.Env = append(cmd.Env, env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	took, code := waitExit(t, cmd, limit)
	return job{stdout: so.String(), stderr: se.String(), code: code, took: took}
}

// finalizeHang reports a job that measured everything and then stuck in
// MPI_Finalize until the watchdog ended it: MPICH 4.0 over UCX's TCP
// transport does this often with 2 ranks per host (openucx/ucx#8738: a
// rank that waits in the PMI barrier no longer progresses the endpoint its
// peer is flushing). The results are complete; the exit status is the
// watchdog's (5), or hydra's 255 when it sees ranks leave mid-finalize.
// The watchdog's line may not make it through hydra as it tears the job
// down, so with MPICH a complete record stream is enough.
func finalizeHang(j job, s stream, mpi string) bool {
	return j.code != 0 && s.end != nil && s.end.Status == result.EndComplete && len(s.bad) == 0 &&
		(strings.Contains(j.stderr, "MPI_Finalize in flight") || mpi == "mpich")
}

// beforeHydraBanner is a job's stdout without the box hydra prints there
// when a rank leaves mid-finalize (finalizeHang): an empty line, "= BAD
// TERMINATION OF ONE OF YOUR APPLICATION PROCESSES" between lines of '=',
// and its advice.
func beforeHydraBanner(stdout string) string {
	i := strings.Index(stdout, "\n=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n")
	if i < 0 {
		return stdout
	}
	before := stdout[:strings.LastIndex(stdout[:i], "\n")+1]
	if strings.HasSuffix(before, "\n\n") {
		before = before[:len(before)-1]
	}
	return before
}

// explainFindings runs gomb explain -json on one run's file (with args)
// and returns its findings as "kind: summary".
func explainFindings(t *testing.T, file string, args ...string) []string {
	t.Helper()
	so, se, code := gombCmd(t, nil, "", append(append([]string{"explain", "-json", "-"}, args...), file)...)
	var ex []struct {
		Findings []struct{ Kind, Summary string }
	}
	if code != 0 || json.Unmarshal([]byte(so), &ex) != nil || len(ex) != 1 {
		t.Fatalf("explain: exit %d\n%s%s", code, so, se)
	}
	var out []string
	for _, f := range ex[0].Findings {
		out = append(out, f.Kind+": "+f.Summary)
	}
	return out
}

// TestTestbedPlacement: records say inter-node when the ranks of a
// communicator sit on different emulated hosts and intra-node when they
// share one; with 2 ranks per host, -multi groups and -map placements are
// classified per group, as IMB places them.
func TestTestbedPlacement(t *testing.T) {
	b := testbed.Start(t, 2, "gtbp-")
	h1, h2 := b.Host(1), b.Host(2)
	type group struct {
		ranks []int
		loc   string
	}
	two := []string{h1, h1, h2, h2}
	cases := []struct {
		name   string
		hosts  string
		np     int
		args   []string
		hostOf []string         // each rank's emulated host
		want   map[string]group // "benchmark/np/group" of ok rows -> ranks, locality
	}{
		{"pair across hosts", h1 + "," + h2, 2, []string{"PingPong", "Allreduce"}, []string{h1, h2}, map[string]group{
			"PingPong/2/-1": {[]int{0, 1}, result.InterNode}, "Allreduce/2/-1": {[]int{0, 1}, result.InterNode}}},
		{"pair on one host", h1 + ":2", 2, []string{"PingPong", "Allreduce"}, []string{h1, h1}, map[string]group{
			"PingPong/2/-1": {[]int{0, 1}, result.IntraNode}, "Allreduce/2/-1": {[]int{0, 1}, result.IntraNode}}},
		{"-multi 1, 2 ranks per host", h1 + ":2," + h2 + ":2", 4, []string{"-multi", "1", "PingPong"}, two, map[string]group{
			"PingPong/2/0": {[]int{0, 1}, result.IntraNode}, "PingPong/2/1": {[]int{2, 3}, result.IntraNode}}},
		{"-multi 1 -map 2x2", h1 + ":2," + h2 + ":2", 4, []string{"-multi", "1", "-map", "2x2", "PingPong"}, two, map[string]group{
			"PingPong/2/0": {[]int{0, 2}, result.InterNode}, "PingPong/2/1": {[]int{1, 3}, result.InterNode}}},
		{"-multi 0 and a collective over both hosts", h1 + ":2," + h2 + ":2", 4, []string{"-multi", "0", "-npmin", "4", "Allreduce"}, two, map[string]group{
			"Allreduce/4/-1": {[]int{0, 1, 2, 3}, result.Mixed}}},
		{"-multi 0, pairs within hosts", h1 + ":2," + h2 + ":2", 4, []string{"-multi", "0", "PingPong"}, two, map[string]group{
			"PingPong/2/-1": {[]int{0, 1, 2, 3}, result.IntraNode}}},
	}
	for _, m := range bedMPIs {
		for _, c := range cases {
			t.Run(m.run+"/"+c.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				args := append([]string{"imb", "-msglog", "0:1", "-iter", "20", "-time", "30", "-watchdog", "10", "-json", out}, c.args...)
				j := bedJob(t, b, m.run, m.lib, c.hosts, c.np, 3*time.Minute, args...)
				s := readRecords(t, out)
				if j.code != 0 && !finalizeHang(j, s, m.run) {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				if finalizeHang(j, s, m.run) {
					t.Logf("MPI_Finalize hung after a complete run; the watchdog ended it (exit %d)", j.code)
				}
				checkNoCrash(t, j)
				// the rank -> host map
				var hosts []string
				for _, r := range s.run.Ranks {
					hosts = append(hosts, r.Host)
				}
				if !slices.Equal(hosts, c.hostOf) {
					t.Errorf("rank hosts %v, want %v", hosts, c.hostOf)
				}
				seen := map[string]bool{}
				for _, r := range s.results {
					if r.Status != result.StatusOK {
						continue
					}
					key := fmt.Sprintf("%s/%d/%d", r.Benchmark, r.NP, r.Group)
					g, ok := c.want[key]
					if !ok {
						continue
					}
					seen[key] = true
					if !slices.Equal(r.Ranks, g.ranks) || r.Locality != g.loc {
						t.Errorf("%s %d bytes: ranks %v %s, want %v %s", key, r.Bytes, r.Ranks, r.Locality, g.ranks, g.loc)
					}
				}
				for key := range c.want {
					if !seen[key] {
						t.Errorf("no measured row for %s", key)
					}
				}
			})
		}
	}
}

// TestTestbedFaults: a link cut for good, a rank killed, a 3 s link flap and
// a signal to the launcher, with both MPIs, on ranks in two emulated hosts.
// Each job ends in bounded time (or rides through the flap), its exit status
// says what happened, the records written so far stay valid, and nothing is
// left running in the emulated hosts.
func TestTestbedFaults(t *testing.T) {
	b := testbed.Start(t, 2, "gtbf-")
	h1, h2 := b.Host(1), b.Host(2)
	type fault struct {
		name     string
		inject   func(t *testing.T, pid int)
		limit    time.Duration // the launcher must be gone by then
		watchdog time.Duration // gomb's per-size deadline
		flap     bool          // the job must ride through it
		signal   bool          // to the launcher: MPICH's mpiexec may then exit 0
		ends     []string      // the end record statuses that may close the stream (nil: any, or none)
	}
	cut := func(t *testing.T, _ int) { b.Must(t, "cut", h2) }
	signal := func(sig syscall.Signal) func(*testing.T, int) {
		return func(t *testing.T, pid int) { syscall.Kill(pid, sig) }
	}
	// gomb's watchdog (deadline) or Open MPI's lost-daemon check (a
	// SIGTERM: interrupted) ends a job whose link is down, whichever first.
	lost := []string{result.EndDeadline, result.EndInterrupted}
	const s10, s60 = 10 * time.Second, 60 * time.Second
	faults := []fault{
		// Open MPI's daemon keepalive notices a lost host after ~10 s: with
		// a 10 s watchdog either may end the job first, with a 3 s one gomb
		// does.
		{name: "link down", inject: cut, limit: s60, watchdog: s10, ends: lost},
		{name: "link down, watchdog 3s", inject: cut, limit: s60, watchdog: 3 * time.Second, ends: lost},
		{name: "rank SIGKILL", inject: func(t *testing.T, _ int) { b.Must(t, "kill", h2, "KILL") }, limit: 30 * time.Second, watchdog: s10},
		// TCP's backed-off retransmission may come up to ~6 s after the
		// flap began: the size in flight must not be cut off by then. The
		// daemons' keepalive needs 5 s without answers (testbed.sh): with
		// 3 probes (3 s) a 3 s flap on a loaded machine ended the job once.
		// What the case proves is that the job rides through, every size
		// measured: how soon the sizes after the flap are done is the
		// machine's load (both MPIs' ranks busy-poll, two on two cores),
		// and 2000 round trips of 0 B did not end in 20 s with two cores
		// kept busy. So the flap run's sizes are as short as the others'
		// (below; the test checks that the flap met one in flight), and
		// its limit, which only keeps a hang from stalling the suite, is
		// three minutes.
		{name: "link flap 3s", inject: func(t *testing.T, _ int) { b.Must(t, "flap", h2, "3") }, limit: 3 * time.Minute, watchdog: 20 * time.Second,
			flap: true, ends: []string{result.EndComplete}},
		// The signal, not the watchdog, must end these: a 10 s watchdog
		// fired once on a loaded machine before the first size was done.
		{name: "SIGINT to the launcher", inject: signal(syscall.SIGINT), limit: 15 * time.Second, watchdog: s60,
			signal: true, ends: []string{result.EndInterrupted}},
		{name: "SIGTERM to the launcher", inject: signal(syscall.SIGTERM), limit: 15 * time.Second, watchdog: s60,
			signal: true, ends: []string{result.EndInterrupted}},
	}
	for _, m := range bedMPIs {
		for _, f := range faults {
			if m.run == "mpich" && f.name == "link down" {
				// Hydra has no daemon keepalive to race gomb's watchdog:
				// the 3 s watchdog's case is the same path (ended 10 s after
				// the cut, against 17)
				continue
			}
			t.Run(m.run+"/"+f.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				// The sizes before the fault must each end within the
				// watchdog, and the job must still be running when the
				// fault comes. With two cores kept busy beside the suite
				// the ranks, which busy-poll, share those cores with two
				// other spinning loops, and a round trip over the emulated
				// link can take ~10 ms: 1000 of 1 B outlasted a 10 s
				// watchdog and 2000 of 0 B a 20 s one. The test's own
				// process, slowed as much, cut the link once when MPICH's
				// ranks had measured 18 of 24 sizes of 100 round trips.
				// So each size is 100 round trips (1 s at 10 ms), and rank
				// 0 spins 2 ms before each from 4 B on (GOMB_FAULT's delay):
				// 0, 1 and 2 B go at the link's pace, and the job then runs
				// on for 10 s and more, whatever the load, the flap run
				// included (it must meet a size in flight).
				const sizes = 24 // -msglog 0:22
				cmd := b.Launch(m.run, h1+","+h2, 2, filepath.Join(binDir, m.lib.bin), "imb", "-msglog", "0:22", "-iter", "100", "-iter_policy", "off",
					"-time", "30", "-watchdog", f.watchdog.String(), "-json", out, "PingPong")
				cmd.Env = append(cmd.Env, "GOMB_FAULT=delay:0:4-:2000us")
				var se bytes.Buffer
				cmd.Stderr = &se
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { b.Must(t, "heal", h2) })
				waitLines(t, cmd, out, 3, &se)
				t0 := time.Now()
				f.inject(t, cmd.Process.Pid)
				// The flap returns when the link is back up: a job it met
				// is still short of its last size then (TCP resends only
				// after a backed-off timeout). One that is not ran past the
				// flap before the link went down, and the case proves nothing.
				if f.flap {
					if text, err := os.ReadFile(out); err == nil && bytes.Count(text, []byte("\n"))-1 >= sizes {
						t.Errorf("all %d sizes were measured by the time the link came back: the flap met no size in flight", sizes)
					}
				}
				_, code := waitExit(t, cmd, f.limit)
				took := time.Since(t0)
				b.Must(t, "heal", h2)
				s := readRecords(t, out)
				end := "none"
				if s.end != nil {
					end = s.end.Status
				}
				t.Logf("FIGURE %-5s %-24s exit %3d %6.2fs after the fault, %2d results kept, end record %s, cut short %v",
					m.run, f.name, code, took.Seconds(), len(s.results), end, s.cut != nil)
				if len(s.bad) > 0 || len(s.results) < 2 {
					t.Errorf("records: %d results, errors %v", len(s.results), s.bad)
				}
				switch {
				case f.flap:
					// Riding through is every size measured and a complete
					// end record; MPICH may then stick in MPI_Finalize
					// (finalizeHang), which the watchdog ends.
					if (code != 0 && !finalizeHang(job{code: code, stderr: se.String()}, s, m.run)) || len(s.results) != sizes {
						t.Errorf("did not ride through the flap: exit %d, end %s, %d of %d sizes\n%s", code, end, len(s.results), sizes, tail(se.String()))
					}
				case code == 0 && !(m.run == "mpich" && f.signal):
					// MPICH's mpiexec returns 0 or the signal number at
					// random once it has forwarded a signal.
					t.Errorf("exit status 0 after %s", f.name)
				}
				if f.ends != nil && !slices.Contains(f.ends, end) {
					t.Errorf("end record %s after %s, want one of %v", end, f.name, f.ends)
				}
				// The end record must say what was in flight; the stderr line
				// passes through the launcher, which may drop it while tearing
				// the job down.
				if end == result.EndDeadline && !strings.Contains(s.end.Message, "in flight") {
					t.Errorf("the end record does not say what was in flight: %q", s.end.Message)
				}
				if end == result.EndDeadline && !strings.Contains(se.String(), "in flight") {
					t.Logf("the launcher did not pass on the watchdog's line:\n%s", tail(se.String()))
				}
				checkNoCrash(t, job{stderr: se.String()})
				if left := b.WaitEmpty(t, 30*time.Second); len(left) > 0 {
					t.Errorf("left running in the emulated hosts 30 s after the job: %v", left)
				}
			})
		}
	}
}

// TestTestbedShaped: with a link shaped to 500 µs of delay, h2's packets
// go through the delay and gomb's small-message latency is at least that
// (it grows by about that much on a quiet machine: a figure); shaped to
// 1 Gbit/s, its 4 MiB bandwidth sits near 125 MB/s. explain reads the
// first as an Ethernet/TCP class path and puts the second at most of a
// 1 Gb/s link.
func TestTestbedShaped(t *testing.T) {
	b := testbed.Start(t, 2, "gtbs-")
	h1, h2 := b.Host(1), b.Host(2)
	// pingpong runs IMB PingPong at one size (msglog "3:3": 8 B) between
	// the two hosts and returns that size's row.
	pingpong := func(t *testing.T, m mpiLib, run, out, msglog, iter string, bytes int64) *result.Result {
		// -time 100: IMB's limit of a table (here 10 s for both sizes) cut
		// the 8-byte row of the delayed run once on a loaded machine,
		// where nfq-delay lets packets go up to 14 ms late.
		j := bedJob(t, b, run, m, h1+","+h2, 2, 2*time.Minute, "imb", "-msglog", msglog, "-iter", iter, "-iter_policy", "off",
			"-time", "100", "-watchdog", "60", "-json", out, "PingPong")
		s := readRecords(t, out)
		if j.code != 0 && !finalizeHang(j, s, run) {
			t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
		}
		for _, r := range s.results {
			if r.Bytes == bytes {
				if r.Status != result.StatusOK {
					t.Fatalf("%d-byte row: %s", bytes, r.Status)
				}
				return r
			}
		}
		t.Fatalf("no %d-byte row", bytes)
		return nil
	}
	const latIter = 400 // round trips of a latency run
	latency := func(t *testing.T, m mpiLib, run, out string) float64 {
		return pingpong(t, m, run, out, "3:3", fmt.Sprint(latIter), 8).TAvgUS
	}
	bandwidth := func(t *testing.T, m mpiLib, run, out string) float64 {
		return pingpong(t, m, run, out, "22:22", "30", 4<<20).MBps
	}
	has := func(findings []string, want string) bool {
		return slices.ContainsFunc(findings, func(f string) bool { return strings.Contains(f, want) })
	}
	const delayUS = 500
	for _, bm := range bedMPIs {
		t.Run(bm.run, func(t *testing.T) {
			dir := t.TempDir()
			base := latency(t, bm.lib, bm.run, filepath.Join(dir, "base-lat.jsonl"))
			baseBW := bandwidth(t, bm.lib, bm.run, filepath.Join(dir, "base-bw.jsonl"))

			b.Must(t, "shape", h2, fmt.Sprint(delayUS), "none")
			t.Cleanup(func() { b.Must(t, "unshape", h2) })
			queued := func() (string, bool) { // h2's packets go to the delay's queue
				rules := b.Must(t, "exec", h2, "iptables", "-t", "mangle", "-S")
				return rules, strings.Contains(rules, "NFQUEUE")
			}
			if rules, ok := queued(); !ok {
				t.Fatalf("no delay queue in h2's rules after shape:\n%s", rules)
			}
			delayed := latency(t, bm.lib, bm.run, filepath.Join(dir, "delay.jsonl"))
			unshaped := b.Must(t, "shape", h2, "0", "1gbit") // unshapes first: nfq-delay's overshoot
			t.Logf("%s", unshaped)
			// the delay went with unshape: no packet of h2's goes to the
			// delay's queue (its 8-B latency at 1 Gbit/s below is a
			// figure: load has moved it from 16 to 2,038 µs)
			if rules, ok := queued(); ok {
				t.Errorf("the delay's rules stayed after unshape:\n%s", rules)
			}
			shaped := bandwidth(t, bm.lib, bm.run, filepath.Join(dir, "rate.jsonl"))
			shapedLat := latency(t, bm.lib, bm.run, filepath.Join(dir, "rate-lat.jsonl"))
			b.Must(t, "unshape", h2)

			t.Logf("FIGURE %-5s 8 B one-way: %.1f µs unshaped, %.1f µs with %d µs delay (+%.0f); 4 MiB: %.0f MB/s unshaped, %.1f MB/s at 1 Gbit/s (line 125 MB/s, %.0f%%), 8 B %.1f µs",
				bm.run, base, delayed, delayUS, delayed-base, baseBW, shaped, shaped/1.25, shapedLat)
			// Only what load cannot break: the delayed run's packets went
			// through the delay (nfq-delay's count, printed as unshape
			// stops it: h2 sent at least a packet a round trip), its
			// latency is at least the delay (nfq-delay adds its own
			// overshoot, which load grows without bound: +620 µs idle,
			// +1790-2250 µs with the other core busy), and the rate limit
			// caps the bandwidth (load only lowers it further). How much
			// the latency grew is a figure: with two cores kept busy the
			// unshaped run read 3,860 µs once, and the delayed 2,330.
			if n := delayedPackets(unshaped); n < latIter {
				t.Errorf("%d of h2's packets went through the delay in %d round trips:\n%s", n, latIter, unshaped)
			}
			if delayed < 0.8*delayUS {
				t.Errorf("8 B latency %.1f µs with a %d µs delay", delayed, delayUS)
			}
			if shaped > 135 {
				t.Errorf("4 MiB at %.1f MB/s on a 1 Gbit/s link (line rate 125 MB/s)", shaped)
			}
			if shaped > baseBW/2 {
				t.Errorf("the rate limit did not bite: %.0f MB/s shaped, %.0f unshaped", shaped, baseBW)
			}
			// The interpretation side reads these runs.
			f := explainFindings(t, filepath.Join(dir, "delay.jsonl"))
			if !has(f, "is slower than any fabric") {
				t.Errorf("explain on the delayed run (%d µs more than any fabric): no finding that says so in %q", delayUS, f)
			}
			f = explainFindings(t, filepath.Join(dir, "rate.jsonl"), "-link", "1")
			if !has(f, "of the link") {
				t.Errorf("explain -link 1 on the rate-limited run: no link efficiency in %q", f)
			}
			t.Logf("explain: %q", f)
		})
	}
}

// delayedPackets reads how many packets nfq-delay held, from the line it
// prints as it stops ("nfq-delay: queue 0: 3484 packets delayed 500 us";
// -1 without that line).
func delayedPackets(out string) int {
	m := regexp.MustCompile(`nfq-delay: queue \d+: (\d+) packets delayed`).FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestTestbedSweep: a bed whose test process is gone (a killed run leaves
// its namespaces behind) is taken down by the next Start; a bed of a
// running process (this one's) is left alone; every bed's prefix carries
// its test process's PID, so two runs never share namespaces.
func TestTestbedSweep(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := fmt.Sprintf("gtbq%d-sw", dead.Process.Pid)
	if out, err := exec.Command("ip", "netns", "add", stale).CombinedOutput(); err != nil {
		t.Skipf("ip netns add: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", stale).Run() })
	first := testbed.Start(t, 1, "gtbq-")
	if want := fmt.Sprintf("gtbq%d-", os.Getpid()); first.Prefix != want {
		t.Errorf("prefix %q, want %q", first.Prefix, want)
	}
	second := testbed.Start(t, 1, "gtbr-") // sweeps again: the first bed's process runs
	names, _ := exec.Command("ip", "netns", "list").Output()
	if strings.Contains(string(names), stale) {
		t.Errorf("the stale bed %s is still there:\n%s", stale, names)
	}
	for _, h := range []string{first.Host(1), second.Host(1)} {
		if !strings.Contains(string(names), h) {
			t.Errorf("the live bed's %s is gone:\n%s", h, names)
		}
	}
}

// TestBeforeHydraBanner: the box hydra 4.0 printed in a CI run whose rank
// the finalize watchdog ended is cut, with the empty line it starts with,
// and nothing else.
func TestBeforeHydraBanner(t *testing.T) {
	table := "# OSU MPI Bandwidth Test v7.4\n# Size      Bandwidth (MB/s)\n4096                  812.51\n"
	box := "\n===================================================================================\n" +
		"=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n" +
		"=   PID 2101 RUNNING AT gtbn10590-h2\n=   EXIT CODE: 9\n" +
		"=   CLEANING UP REMAINING PROCESSES\n=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES\n" +
		"===================================================================================\n" +
		"YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)\n" +
		"This typically refers to a problem with your application.\nPlease see the FAQ page for debugging suggestions\n"
	for _, c := range []struct{ name, in, want string }{
		{"box", table + box, table},
		{"box without its empty line", table + box[1:], table},
		{"none", table, table},
		{"a line of '=' alone", table + "=====\n", table + "=====\n"},
		{"empty", "", ""},
	} {
		if got := beforeHydraBanner(c.in); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
