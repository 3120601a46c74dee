package e2e

// gomb under Slurm (scripts/slurm.sh via internal/testbed): a one-node
// cluster on this machine and a two-node one on emulated hosts, srun with
// the PMI plugin each MPI takes (Open MPI: PMIx, MPICH: PMI2), the MPIs'
// own launchers inside sbatch allocations, scancel and Ctrl-C. They need
// root and Debian's Slurm; ./scripts/test.sh requires them.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testbed"
	"github.com/gomb-hpc/gomb/result"
)

// srunMPIs pairs each test binary with the srun plugin its MPI starts with.
var srunMPIs = []struct {
	lib    mpiLib
	plugin string
	wrong  string // a plugin it cannot start with
}{{mpis[0], "pmix", "pmi2"}, {mpis[1], "pmi2", "none"}}

// slurmJob runs a command on the cluster and waits at most limit.
func slurmJob(t *testing.T, s *testbed.Slurm, env []string, limit time.Duration, args ...string) job {
	t.Helper()
	cmd := s.Command(args...)
	cmd.Env = append(cmd.Env, env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	took, code := waitExit(t, cmd, limit)
	return job{stdout: so.String(), stderr: se.String(), code: code, took: took}
}

// checkJob: the run record names the launcher, the Slurm job and its task
// layout, and every rank's host is the node Slurm put it on.
func checkJob(t *testing.T, s stream, launcher, name string, nodes []string, tasks []int) {
	t.Helper()
	if s.run == nil {
		t.Fatal("no run record")
	}
	if s.run.Launcher != launcher {
		t.Errorf("launcher %q, want %q", s.run.Launcher, launcher)
	}
	j := s.run.Job
	if j == nil {
		t.Fatalf("no job in the run record; env %v", s.run.Env)
	}
	if j.Scheduler != "slurm" || j.ID == "" || j.Cluster != "gomb" || j.Partition != "local" {
		t.Errorf("job %+v", j)
	}
	if name != "" && j.Name != name {
		t.Errorf("job name %q, want %q", j.Name, name)
	}
	if !slices.Equal(j.Nodes, nodes) || !slices.Equal(j.Tasks, tasks) {
		t.Errorf("job nodes %v tasks %v, want %v %v", j.Nodes, j.Tasks, nodes, tasks)
	}
	var want []string
	for i, n := range tasks {
		for range n {
			want = append(want, nodes[i])
		}
	}
	if got := s.run.RankHosts(); !slices.Equal(got, want) {
		t.Errorf("rank hosts %v, want %v", got, want)
	}
}

func shortHostname(t *testing.T) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	h, _, _ = strings.Cut(h, ".")
	return h
}

// TestSlurmLocal: on a one-node cluster, srun starts gomb with each MPI's
// plugin at 2 and 4 ranks, the MPIs' own launchers run it inside sbatch,
// the records say so (launcher, job id, node list, task layout), scancel
// and Ctrl-C end a run with its records intact, and the wrong plugin gets
// one line that names the right one.
func TestSlurmLocal(t *testing.T) {
	s := testbed.StartSlurm(t, nil, 1)
	node := shortHostname(t)
	for _, m := range srunMPIs {
		bin := filepath.Join(binDir, m.lib.bin)
		t.Run(m.lib.name+"/srun", func(t *testing.T) {
			for _, np := range []int{2, 4} {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				name := fmt.Sprintf("e2e-%s-%d", m.plugin, np)
				// --overcommit: more tasks than the node's CPUs, as mpirun's
				// --oversubscribe
				j := slurmJob(t, s, nil, 3*time.Minute, "srun", "--overcommit", "-n", fmt.Sprint(np), "--mpi="+m.plugin, "-J", name,
					bin, "imb", "-npmin", fmt.Sprint(np), "-msglog", "0:2", "-iter", "10", "-time", "30", "-json", out, "PingPong", "Allreduce")
				if j.code != 0 {
					t.Fatalf("np %d: exit %d\n%s", np, j.code, tail(j.stderr))
				}
				checkNoCrash(t, j)
				st := readRecords(t, out)
				checkJob(t, st, result.LauncherSrun, name, []string{node}, []int{np})
				if st.run.Job.MPIPlugin != m.plugin || st.run.Job.Step == "" {
					t.Errorf("np %d: mpi plugin %q step %q", np, st.run.Job.MPIPlugin, st.run.Job.Step)
				}
				if st.end == nil || st.end.Status != result.EndComplete || len(st.results) == 0 {
					t.Errorf("np %d: end %+v, %d results", np, st.end, len(st.results))
				}
				for _, r := range st.results {
					if r.Locality != result.IntraNode {
						t.Errorf("np %d: %s %d bytes: locality %s", np, r.Benchmark, r.Bytes, r.Locality)
					}
				}
			}
		})
		t.Run(m.lib.name+"/sbatch", func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "r.jsonl")
			// The MPI's own launcher inside the allocation, as sites'
			// batch scripts run it.
			launcher, want := "mpirun.openmpi --mca btl self,vader --mca oob_tcp_if_include lo", result.LauncherMpirun
			if m.lib.name == "mpich" {
				launcher, want = "mpirun.mpich -iface lo", result.LauncherMpiexec
			}
			script := fmt.Sprintf("#!/bin/sh\n%s -n 2 %s imb -msglog 0:2 -iter 100 -json %s PingPong\n", launcher, bin, out)
			if err := os.WriteFile(filepath.Join(dir, "job.sh"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			j := slurmJob(t, s, nil, 3*time.Minute, "sbatch", "--wait", "--parsable", "-n", "2", "-J", "e2e-batch",
				"-o", filepath.Join(dir, "job.out"), filepath.Join(dir, "job.sh"))
			log, _ := os.ReadFile(filepath.Join(dir, "job.out"))
			if j.code != 0 {
				t.Fatalf("sbatch exit %d\n%s\n%s", j.code, tail(j.stderr), tail(string(log)))
			}
			st := readRecords(t, out)
			checkJob(t, st, want, "e2e-batch", []string{node}, []int{2})
			if id := strings.TrimSpace(j.stdout); st.run.Job.ID != id {
				t.Errorf("job id %q, sbatch said %q", st.run.Job.ID, id)
			}
		})
		// a long sweep under srun, under way (three records written). Few
		// repetitions a size, many sizes: the first records come within a
		// few seconds even on a loaded machine (srun's tasks are not bound:
		// with a core kept busy, two spinning MPICH ranks took 20-35 s for
		// the first two sizes at 2,000 repetitions, one round trip per
		// time slice), and the sizes up to 16 MiB keep the job running for
		// seconds more. A job the test leaves is cancelled: its tasks are
		// slurmstepd's, not srun's children.
		longRun := func(t *testing.T, name string) (*exec.Cmd, string) {
			t.Cleanup(func() { _ = s.Command("scancel", "-n", name).Run() })
			out := filepath.Join(t.TempDir(), "r.jsonl")
			cmd := s.Command("srun", "-n", "2", "--mpi="+m.plugin, "-J", name, bin, "imb", "-iter", "200", "-iter_policy", "off",
				"-msglog", "0:24", "-time", "600", "-json", out, "PingPong", "Sendrecv", "Exchange")
			var se bytes.Buffer
			cmd.Stderr = &se
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitLines(t, cmd, out, 3, &se)
			return cmd, out
		}
		// scancel sends SIGTERM, scancel -s INT SIGINT alone; no SIGKILL
		// follows at once, so the end record is required.
		for _, c := range []struct {
			flags  []string
			job    string
			signal string
		}{{nil, "e2e-cancel-", "terminated"}, {[]string{"-s", "INT"}, "e2e-int-", "interrupt"}} {
			scancel := append([]string{"scancel"}, c.flags...)
			t.Run(m.lib.name+"/"+strings.Join(scancel, " "), func(t *testing.T) {
				name := c.job + m.plugin
				cmd, out := longRun(t, name)
				if o, err := s.Command(append(scancel, "-n", name)...).CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(scancel, " "), err, o)
				}
				took, code := waitExit(t, cmd, time.Minute)
				t.Logf("%s: srun exit %d after %v", strings.Join(scancel, " "), code, took.Round(time.Millisecond))
				checkInterrupted(t, readRecords(t, out), c.signal)
			})
		}
		t.Run(m.lib.name+"/ctrl-c", func(t *testing.T) {
			cmd, out := longRun(t, "e2e-ctrl-c-"+m.plugin)
			// srun's own convention: one Ctrl-C reports the tasks, a second
			// within a second forwards SIGINT and at once SIGKILL ("forcing
			// job termination"): 3-15 ms apart here. gomb's end record
			// races the SIGKILL and may be missing (docs/slurm.md); what
			// must hold is the job ending and every record written being
			// whole, with the finished sizes kept.
			cmd.Process.Signal(syscall.SIGINT)
			time.Sleep(300 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
			took, code := waitExit(t, cmd, time.Minute)
			st := readRecords(t, out)
			t.Logf("two SIGINTs: srun exit %d after %v, end record %v", code, took.Round(time.Millisecond), st.end != nil)
			if st.run == nil {
				t.Error("no run record")
			}
			if st.end != nil {
				checkInterrupted(t, st, "interrupt")
			} else if len(st.bad) != 0 || len(st.results) < 2 {
				t.Errorf("%d results kept, malformed records: %v", len(st.results), st.bad)
			}
			// either way explain says the run did not finish
			so, se, code := gombCmd(t, nil, "", "explain", out)
			if code != 0 || !strings.Contains(so, "WARNING [incomplete] the run ") {
				t.Errorf("explain: exit %d\n%s%s", code, so, se)
			}
		})
		t.Run(m.lib.name+"/wrong plugin", func(t *testing.T) {
			j := slurmJob(t, s, nil, time.Minute, "srun", "-n", "2", "--mpi="+m.wrong, bin, "imb", "-msglog", "0:1", "PingPong")
			if j.code == 0 {
				t.Fatalf("exit 0 under --mpi=%s", m.wrong)
			}
			checkNoCrash(t, j)
			var ours []string
			for _, l := range strings.Split(j.stderr, "\n") {
				if strings.HasPrefix(l, "gomb ") {
					ours = append(ours, l)
				}
			}
			if len(ours) != 1 || !strings.Contains(ours[0], "--mpi="+m.plugin) {
				t.Errorf("want one line naming --mpi=%s, got:\n%s", m.plugin, j.stderr)
			}
			if strings.Contains(j.stderr, "PMIX_ERROR") || strings.Contains(j.stderr, "*** An error occurred") {
				t.Errorf("the MPI library's own abort text got through:\n%s", tail(j.stderr))
			}
		})
	}
}

// checkInterrupted: a run ended by a signal keeps every finished size and
// ends with an "interrupted" record naming it.
func checkInterrupted(t *testing.T, st stream, signal string) {
	t.Helper()
	if len(st.bad) != 0 {
		t.Errorf("malformed records: %v", st.bad)
	}
	if len(st.results) < 2 {
		t.Errorf("%d results kept", len(st.results))
	}
	if st.end == nil || st.end.Status != result.EndInterrupted || st.end.Signal != signal {
		t.Errorf("end record %+v, want interrupted by %s", st.end, signal)
	}
}

// TestSlurmTestbed: a slurmd on each of two emulated hosts; srun places one
// rank per node (both MPIs) and two per node (Open MPI: MPICH 4.0 over
// UCX's TCP transport often hangs in MPI_Finalize with two ranks a host,
// see finalizeHang); the records carry the node list and the layout, and
// classify the pairs as Slurm placed them.
func TestSlurmTestbed(t *testing.T) {
	b := testbed.Start(t, 2, "gtbs-")
	s := testbed.StartSlurm(t, b, 2)
	h1, h2 := b.Host(1), b.Host(2)
	nodes := []string{h1, h2}
	fabric := map[string][]string{
		"openmpi": {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader,tcp", "OMPI_MCA_btl_tcp_if_include=10.199.77.0/24"},
		"mpich":   {"UCX_TLS=tcp,self", "UCX_NET_DEVICES=eth0"},
	}
	for _, m := range srunMPIs {
		for _, perNode := range []int{1, 2} {
			if perNode == 2 && m.lib.name == "mpich" {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d per node", m.lib.name, perNode), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				np := 2 * perNode
				j := slurmJob(t, s, fabric[m.lib.name], 3*time.Minute, "srun", "-N", "2", "-n", fmt.Sprint(np),
					fmt.Sprintf("--ntasks-per-node=%d", perNode), "--mpi="+m.plugin,
					filepath.Join(binDir, m.lib.bin), "imb", "-msglog", "0:2", "-iter", "100", "-time", "30",
					"-watchdog", "20", "-json", out, "PingPong")
				st := readRecords(t, out)
				if j.code != 0 && !finalizeHang(j, st, m.lib.name) {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				checkNoCrash(t, j)
				tasks := []int{perNode, perNode}
				checkJob(t, st, result.LauncherSrun, "", nodes, tasks)
				// PingPong runs on ranks 0 and 1: across the nodes with one
				// rank a node, within h1 with two.
				want := result.InterNode
				if perNode == 2 {
					want = result.IntraNode
				}
				for _, r := range st.results {
					if r.Locality != want {
						t.Errorf("%s %d bytes: locality %s, want %s", r.Benchmark, r.Bytes, r.Locality, want)
					}
				}
				if len(st.results) == 0 {
					t.Error("no results")
				}
			})
		}
	}
	t.Run("campaign", func(t *testing.T) { slurmCampaign(t, s, fabric["openmpi"]) })
	t.Run("archive postgres", func(t *testing.T) { slurmPostgres(t, s, fabric["openmpi"]) })
	// gomb fleet under srun, two ranks a node, every rank with every rank
	// of the other node (-per-node cross): four pairs in two sub-rounds
	t.Run("fleet", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "fleet.jsonl")
		env := append([]string{"OMPI_MCA_mpi_yield_when_idle=1"}, fabric["openmpi"]...)
		j := slurmJob(t, s, env, 3*time.Minute, "srun", "-N", "2", "-n", "4", "--ntasks-per-node=2", "--mpi=pmix",
			filepath.Join(binDir, mpis[0].bin), "fleet", "-per-node", "cross", "-i", "100", "-bw-iter", "5", "-json", out)
		checkNoCrash(t, j)
		if j.code != 0 {
			t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
		}
		st := readRecords(t, out)
		checkJob(t, st, result.LauncherSrun, "", nodes, []int{2, 2})
		locals := map[[2]int]int{}
		for _, r := range st.results {
			if r.Pair == nil || r.Pair.Hosts != [2]string{h1, h2} {
				t.Fatalf("row %+v", r)
			}
			locals[r.Pair.Local]++
		}
		if len(locals) != 4 || len(st.results) != 8 || !strings.Contains(j.stdout, "2 rounds, 4 pairs, up to 2 pairs at once") {
			t.Errorf("local rank pairs %v in %d rows\n%s", locals, len(st.results), j.stdout)
		}
	})
	// The slurmds and slurmctld run in the hosts until the cluster is
	// taken down; no rank may be left beside them.
	for _, p := range b.Pids(t) {
		if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p)); strings.HasPrefix(string(comm), "gomb") {
			t.Errorf("rank %d (%s) left running on the emulated hosts", p, strings.TrimSpace(string(comm)))
		}
	}
}

// slurmCampaign runs campaigns/slurm-array.sbatch as a job array of four
// cells (nodes 1 and 2 x 2 ranks a node x PingPong and Allreduce) on the
// two-node cluster; every cell's records carry the campaign id, its
// coordinates and its array task; the archive holds them as one campaign
// that archive list, compare, report and history select by id.
func slurmCampaign(t *testing.T, s *testbed.Slurm, fabric []string) {
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("..", "..", "campaigns", "slurm-array.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	env := append([]string{"NODES=1 2", "PPN=2", "BENCHES=PingPong Allreduce", "GOMB=" + filepath.Join(binDir, "gomb"),
		"SRUN_MPI=pmix", "GOMB_ARGS=imb -msglog 0:2 -iter 100 -time 30", "OUT=" + dir}, fabric...)
	j := slurmJob(t, s, env, 5*time.Minute, "sbatch", "--wait", "--parsable", "-N", "2", "--ntasks-per-node=2",
		"--array=0-3", "-o", filepath.Join(dir, "%A_%a.out"), script)
	if j.code != 0 {
		logs, _ := filepath.Glob(filepath.Join(dir, "*.out"))
		var text []string
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			if i := strings.Index(string(b), "------"); i >= 0 {
				b = b[max(0, i-2000):min(len(b), i+2000)]
			}
			text = append(text, l+":\n"+string(b))
		}
		t.Fatalf("sbatch exit %d\n%s\n%s", j.code, tail(j.stderr), strings.Join(text, "\n"))
	}
	arrayJob := strings.TrimSpace(j.stdout)
	campaign := "slurm-" + arrayJob
	type cell struct{ nodes, bench string }
	want := map[int]cell{0: {"1", "PingPong"}, 1: {"1", "Allreduce"}, 2: {"2", "PingPong"}, 3: {"2", "Allreduce"}}
	var files []string
	for task, c := range want {
		f := filepath.Join(dir, fmt.Sprintf("cell-%d.jsonl", task))
		files = append(files, f)
		st := readRecords(t, f)
		if st.run == nil || st.end == nil || st.end.Status != result.EndComplete {
			t.Fatalf("cell %d: run %v end %+v", task, st.run != nil, st.end)
		}
		l := st.run.Labels
		if l["campaign"] != campaign || l["nodes"] != c.nodes || l["ppn"] != "2" || l["bench"] != c.bench {
			t.Errorf("cell %d: labels %v, want campaign %s nodes %s ppn 2 bench %s", task, l, campaign, c.nodes, c.bench)
		}
		if jb := st.run.Job; jb == nil || jb.ArrayJob != arrayJob || jb.ArrayTask != fmt.Sprint(task) {
			t.Errorf("cell %d: job %+v, want array %s task %d", task, jb, arrayJob, task)
		}
		if n := len(st.run.Hosts); fmt.Sprint(n) != c.nodes {
			t.Errorf("cell %d: ranks on %d hosts, want %s", task, n, c.nodes)
		}
	}
	db := []string{"GOMB_ARCHIVE=" + filepath.Join(dir, "archive.db")}
	if _, se, code := gombCmd(t, db, "", append([]string{"archive", "add"}, files...)...); code != 0 {
		t.Fatalf("archive add: exit %d\n%s", code, se)
	}
	so, se, code := gombCmd(t, db, "", "archive", "list", "campaign="+campaign)
	if code != 0 || !strings.Contains(so+se, "4 runs") || strings.Count(so, "complete") != 4 {
		t.Errorf("archive list campaign=%s: exit %d, want 4 runs:\n%s%s", campaign, code, so, se)
	}
	so, se, code = gombCmd(t, db, "", "compare", "campaign="+campaign, "nodes=1", "bench=PingPong", "vs",
		"campaign="+campaign, "nodes=2", "bench=PingPong")
	if code != 0 || !strings.Contains(so, "PingPong") {
		t.Errorf("compare of the campaign's cells: exit %d\n%s%s", code, so, se)
	}
	html := filepath.Join(dir, "report.html")
	if _, se, code = gombCmd(t, db, "", "report", "-o", html, "campaign="+campaign); code != 0 {
		t.Errorf("report campaign=%s: exit %d\n%s", campaign, code, se)
	}
	so, se, code = gombCmd(t, db, "", "archive", "history", "-b", "PingPong", "-bytes", "4", "campaign="+campaign)
	if code != 0 || strings.Count(so, "\n") < 3 {
		t.Errorf("history of the campaign: exit %d\n%s%s", code, so, se)
	}
}

// TestSlurmDownEndsSrun: slurm.sh down while a job runs ends its tasks
// and its srun too, which would otherwise wait minutes for a controller
// that is gone.
func TestSlurmDownEndsSrun(t *testing.T) {
	s := testbed.StartSlurm(t, nil, 1)
	cmd := s.Command("srun", "-n", "1", "-J", "e2e-down", "sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.Output(t, "squeue", "-h", "-o", "%j %T"), "e2e-down RUNNING") {
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatal("the job did not start in 30 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if out, err := s.Down(); err != nil {
		t.Fatalf("slurm.sh down: %v\n%s", err, out)
	}
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Error("srun still ran 15 s after slurm.sh down")
	}
}
