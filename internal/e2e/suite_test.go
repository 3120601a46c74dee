package e2e

// gomb suite on emulated hosts: six hosts in two racks with two NICs
// each, the racks' uplink delayed, under a Slurm cluster whose
// topology.conf has a leaf switch a rack and a spine; and MPICH's mpiexec
// with a hostfile over the same hosts.

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/suite"
	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/result"
)

// TestTestbedSuite runs the shipped OSU suite (one repetition, OSU's
// loops cut to a few iterations) inside a salloc allocation of the six
// hosts: the shortest-path pair is in one rack and the longest crosses
// the delayed uplink (and its latency is higher); the per-NIC row runs
// two ranks a node; full-system rows use every node; GPU rows are skipped
// with their reason; every table value is the records'. The run is
// stopped midway (SIGTERM) and rerun: only the rows left run (a launch
// Open MPI crashed in MPI_Init, as it now and then does under srun on
// this busy machine, runs again: suite run's -retries, default 1). Then
// MPICH's mpiexec runs a small suite on a hostfile of the same hosts, a
// required value it misses making the report exit 4.
func TestTestbedSuite(t *testing.T) {
	b := testbed.StartNICs(t, 6, 2, 2, "gtbu-")
	b.Must(t, "shape-uplink", "1", "none", "300")
	s := testbed.StartSlurm(t, b, 6)
	var hosts []string
	for i := 1; i <= 6; i++ {
		hosts = append(hosts, b.Host(i))
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "osu")
	pidfile := filepath.Join(dir, "pid")
	env := []string{"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader,tcp", "OMPI_MCA_btl_tcp_if_include=10.199.77.0/24",
		"OMPI_MCA_oob_tcp_if_include=10.199.77.0/24", "OMPI_MCA_mpi_yield_when_idle=1",
		// Open MPI 4.1's osc/rdma over the TCP BTL fails MPI_Win_create
		// (MPI_ERR_WIN) between hosts: the one-sided rows take osc/pt2pt
		"OMPI_MCA_osc=pt2pt"}
	gomb := filepath.Join(binDir, "gomb")
	runSuite := func() (*syscall.WaitStatus, string) {
		// salloc runs the command on host 1 inside the allocation; the
		// shell leaves its PID (then gomb's: exec) for the test to signal
		script := fmt.Sprintf("echo $$ > %s; exec %s suite run osu-crossroads -o %s -repetitions 1 -bind none -extra 'osu -i 5 -x 1' -deadline 8m",
			pidfile, gomb, out)
		j := slurmJobBG(t, s, env, "salloc", "-N", "6", "--ntasks-per-node=2", "-J", "e2e-suite", "sh", "-c", script)
		return j()
	}
	// the first run, stopped once five launches are done
	stopAt := 5
	done := make(chan string, 1)
	go func() {
		_, log := runSuite()
		done <- log
	}()
	deadline := time.Now().Add(5 * time.Minute)
	for okLaunches(out) < stopAt && time.Now().Before(deadline) {
		select {
		case log := <-done:
			t.Fatalf("the suite ended before %d launches:\n%s", stopAt, tail(log))
		case <-time.After(500 * time.Millisecond):
		}
	}
	pid, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err := syscall.Kill(p, syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM to gomb suite run (%d): %v", p, err)
	}
	first := <-done
	ledger1, err := suite.ReadLedger(out)
	if err != nil {
		t.Fatal(err)
	}
	ran1 := map[string]bool{}
	for k, e := range ledger1 {
		if e.Status == suite.StatusOK {
			ran1[k] = true
		}
	}
	if len(ran1) < stopAt || !strings.Contains(first, "stopped by terminated") {
		t.Fatalf("first run: %d launches ok, want %d, and a stop by SIGTERM:\n%s", len(ran1), stopAt, tail(first))
	}
	// the rerun: the same command runs only what is left
	_, second := runSuite()
	if !strings.Contains(second, "0 failed") {
		t.Fatalf("rerun:\n%s%s", second, failedLogs(second))
	}
	if strings.Contains(second, "measured nothing (") {
		t.Logf("rerun: a launch ran twice:\n%s", second)
	}
	// what ran again: nothing the first run completed (a launch that
	// completed as SIGTERM came is kept too: its records are whole)
	kept, ran2 := 0, 0
	for _, l := range strings.Split(second, "\n") {
		if strings.Contains(l, ": complete already (") {
			kept++
		}
		if i := strings.Index(l, "] row "); i >= 0 && strings.Contains(l, ": ok in ") {
			ran2++
			id := strings.Fields(l[i+6:])[0]
			if ran1[suite.LedgerKey(id, 1)] {
				t.Errorf("rerun: %s ran again, though the first run completed it", id)
			}
		}
	}
	if kept < len(ran1) || kept+ran2 != 13 || ran2 == 0 {
		t.Errorf("rerun: %d launches kept, %d ran; want at least the first run's %d kept, and the other of 13 run\n%s", kept, ran2, len(ran1), second)
	}
	// the table, against the records
	so, se, code := gombCmd(t, nil, "", "suite", "report", "osu-crossroads", out)
	if code != 0 {
		t.Fatalf("suite report: exit %d\n%s%s", code, so, se)
	}
	t.Logf("the results table:\n%s", so)
	csvOut, se, code := gombCmd(t, nil, "", "suite", "report", "-format", "csv", "osu-crossroads", out)
	if code != 0 {
		t.Fatalf("suite report -format csv: exit %d\n%s", code, se)
	}
	rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	latency := map[string]float64{}
	for _, r := range rows[1:] {
		id, verdict := r[col["row"]], r[col["verdict"]]
		if strings.HasSuffix(id, "-gpu") || strings.HasPrefix(id, "mbw_mr-d2d") {
			if verdict != suite.Skipped || !strings.Contains(r[col["reason"]], "GPU") {
				t.Errorf("%s: verdict %q (%s), want skipped for want of a GPU", id, verdict, r[col["reason"]])
			}
			continue
		}
		if r[col["result"]] == "" {
			t.Errorf("%s: no value (%s %s)", id, verdict, r[col["reason"]])
			continue
		}
		got, _ := strconv.ParseFloat(r[col["result"]], 64)
		st := readRecords(t, filepath.Join(out, "records", id+"-rep1.jsonl"))
		if st.run.Labels["campaign"] != "osu-crossroads" || st.run.Labels["row"] != id || st.run.Labels["rep"] != "1" {
			t.Errorf("%s: labels %v", id, st.run.Labels)
		}
		bytes := int64(-1)
		if r[col["bytes"]] != "" {
			bytes, _ = strconv.ParseInt(r[col["bytes"]], 10, 64)
		}
		var want float64
		for _, x := range st.results {
			if x.Status == result.StatusOK && (bytes < 0 || x.Bytes == bytes) {
				switch r[col["metric"]] {
				case "bandwidth":
					want = x.MBps
				default:
					want = x.TAvgUS
				}
			}
		}
		if got != want {
			t.Errorf("%s at %s: the table says %v, the records %v", id, r[col["msg_size"]], got, want)
		}
		runHosts := st.run.Hosts
		switch {
		case id == "latency-longest" || id == "latency-shortest":
			// the fastest round trip of the row's: load only adds to a
			// sample, the delayed uplink adds to every one that crosses it
			latency[id] = math.Inf(1)
			for _, x := range st.results {
				for _, rank := range x.SamplesUS {
					for _, v := range rank {
						latency[id] = min(latency[id], v)
					}
				}
			}
			sameRack := (slices.Index(hosts, runHosts[0]) < 3) == (slices.Index(hosts, runHosts[1]) < 3)
			if len(runHosts) != 2 || sameRack != (id == "latency-shortest") {
				t.Errorf("%s ran on %v", id, runHosts)
			}
		case id == "mbw_mr-nic":
			var tasks []int // over the allocation's nodes: those the row used
			if st.run.Job != nil {
				for _, n := range st.run.Job.Tasks {
					if n > 0 {
						tasks = append(tasks, n)
					}
				}
			}
			if !slices.Equal(tasks, []int{2, 2}) {
				t.Errorf("per-nic: tasks %+v, want two a node (two NICs)", st.run.Job)
			}
		case strings.HasSuffix(id, "-core") && id != "mbw_mr-core" || id == "alltoall-node":
			if len(runHosts) != 6 {
				t.Errorf("%s: full system on %v", id, runHosts)
			}
		}
	}
	// Each path's fastest sample: the longest crosses the uplink delayed
	// 300 us, so none of its samples is under that delay's half (it is
	// delayed in one direction at least); the shortest stays in a rack.
	if !(latency["latency-longest"] >= 150 && latency["latency-longest"] > latency["latency-shortest"]+100) {
		t.Errorf("longest path's fastest sample %.1f us, shortest's %.1f us: the delayed uplink (300 us) does not show", latency["latency-longest"], latency["latency-shortest"])
	}
	// nodes.jsonl: every node's facts, two NICs each
	facts, err := suite.ReadFactsFile(filepath.Join(out, suite.FactsFile))
	if err != nil || len(facts) != 6 {
		t.Fatalf("facts: %v %v", facts, err)
	}
	for h, f := range facts {
		if len(f.NICs) != 2 || f.Cores < 1 {
			t.Errorf("%s: %+v", h, f)
		}
	}
	html := filepath.Join(dir, "osu.html")
	if _, se, code := gombCmd(t, nil, "", "suite", "report", "-format", "html", "-o", html, "osu-crossroads", out); code != 0 {
		t.Errorf("suite report -format html: exit %d\n%s", code, se)
	} else if b, _ := os.ReadFile(html); !strings.Contains(string(b), `id="suite"`) {
		t.Errorf("the HTML report has no suite table")
	}
	t.Run("mpiexec hostfile", func(t *testing.T) { suiteMpiexec(t, b, hosts) })
}

// suiteMpiexec: MPICH's mpiexec (Hydra, through the testbed's rsh) runs a
// small suite on a hostfile: the longest path from a topology file, one
// rank a node over every node, a required value no network meets.
func suiteMpiexec(t *testing.T, b *testbed.Bed, hosts []string) {
	dir := t.TempDir()
	hf := filepath.Join(dir, "hosts")
	topo := filepath.Join(dir, "topology.conf")
	file := filepath.Join(dir, "small.yaml")
	for name, body := range map[string]string{
		hf:   strings.Join(hosts, "\n") + "\n",
		topo: fmt.Sprintf("SwitchName=a Nodes=%s\nSwitchName=b Nodes=%s\nSwitchName=s Switches=a,b\n", strings.Join(hosts[:3], ","), strings.Join(hosts[3:], ",")),
		file: `suite: small
rows:
  - id: far
    test: osu latency -m 8:8 -i 20 -x 2
    sizes: 8
    nodes: 2
    path: longest
    required: <= 0.01 us
  - id: all
    test: imb Barrier -iter 20 -npmin 6
    nodes: all
`,
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "run")
	cmd := b.Command(b.Host(1), "env", "UCX_TLS=tcp,self", "UCX_NET_DEVICES=eth0", filepath.Join(binDir, "gomb-mpich"),
		"suite", "run", file, "-hostfile", hf, "-topology", topo, "-o", out, "-bind", "none", "-launcher", "mpiexec=mpirun.mpich",
		"-launcher-args", "-launcher ssh -launcher-exec "+filepath.Join(b.Dir(), "rsh"))
	var se strings.Builder
	cmd.Stdout, cmd.Stderr = &se, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_, code := waitExit(t, cmd, 4*time.Minute)
	if code != 0 {
		logs, _ := filepath.Glob(filepath.Join(out, "logs", "*"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, tail(string(b)))
		}
		t.Fatalf("gomb-mpich suite run: exit %d\n%s", code, tail(se.String()))
	}
	st := readRecords(t, filepath.Join(out, "records", "far-rep1.jsonl"))
	if st.run.Launcher != result.LauncherMpiexec || len(st.run.Hosts) != 2 || st.run.Hosts[0] != hosts[0] || st.run.Hosts[1] != hosts[3] {
		t.Errorf("far: launcher %s on %v, want mpiexec on %s and %s", st.run.Launcher, st.run.Hosts, hosts[0], hosts[3])
	}
	if st := readRecords(t, filepath.Join(out, "records", "all-rep1.jsonl")); len(st.run.Hosts) != 6 {
		t.Errorf("all: on %v", st.run.Hosts)
	}
	so, se2, code := gombCmd(t, nil, "", "suite", "report", file, out)
	if code != 4 || !strings.Contains(so, "FAIL: 1 of 1 required values missed") {
		t.Errorf("report of a missed requirement: exit %d, want 4\n%s%s", code, so, se2)
	}
	// a bad suite file, whole binary: one line naming the file, line, field
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("suite: bad\nrows:\n  - test: osu latency\n    sizes: 8\n    nodes: 2\n    placement: per-nic\n    path: longest\n"), 0o644)
	_, se3, code := gombCmd(t, nil, "", "suite", "plan", bad, "-hostfile", hf)
	if code != 2 || strings.Count(strings.TrimSpace(se3), "\n") != 0 || !strings.Contains(se3, bad+":7: rows[1].path: longest: gomb knows no topology here") {
		t.Errorf("bad suite file: exit %d\n%s", code, se3)
	}
}

// okLaunches counts the launches the ledger of a suite directory has as ok.
func okLaunches(dir string) int {
	l, err := suite.ReadLedger(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range l {
		if e.Status == suite.StatusOK {
			n++
		}
	}
	return n
}

// slurmJobBG starts a command on the cluster; the function it returns
// waits for it (10 minutes at most) and gives its output.
func slurmJobBG(t *testing.T, s *testbed.Slurm, env []string, args ...string) func() (*syscall.WaitStatus, string) {
	t.Helper()
	cmd := s.Command(args...)
	cmd.Env = append(cmd.Env, env...)
	var outb strings.Builder
	cmd.Stdout, cmd.Stderr = &outb, &outb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func() (*syscall.WaitStatus, string) {
		waitExit(t, cmd, 10*time.Minute)
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		return &ws, outb.String()
	}
}

// failedLogs returns the logs of the launches a suite run's output says
// failed ("failed: ... (log: PATH)"): what the ranks printed is in them,
// and the test's folder is gone once it ends.
func failedLogs(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		i := strings.LastIndex(l, "(log: ")
		if !strings.Contains(l, ": failed: ") || i < 0 || !strings.HasSuffix(l, ")") {
			continue
		}
		path := l[i+len("(log: ") : len(l)-1]
		text, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(&b, "\n%s: %v", path, err)
			continue
		}
		fmt.Fprintf(&b, "\n--- %s:\n%s", path, tail(string(text)))
	}
	return b.String()
}
