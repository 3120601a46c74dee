package result

import (
	"reflect"
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "vm", want: []string{"vm"}},
		{in: "node[01-03,07],login1", want: []string{"node01", "node02", "node03", "node07", "login1"}},
		{in: "gtb-h[1-2]", want: []string{"gtb-h1", "gtb-h2"}},
		{in: "r[1-2]n[1-2]", want: []string{"r1n1", "r1n2", "r2n1", "r2n2"}},
		{in: "n[8-10]-ib", want: []string{"n8-ib", "n9-ib", "n10-ib"}},
		{in: "a,b", want: []string{"a", "b"}},
		{in: "x[098-101]", want: []string{"x098", "x099", "x100", "x101"}},
		{in: "", err: true},
		{in: "n[1-", err: true},
		{in: "n1]", err: true},
		{in: "n[3-1]", err: true},
		{in: "n[a-b]", err: true},
		{in: "n[[1]]", err: true},
		{in: "n[0-99999999]", err: true},
	} {
		got, err := ExpandHostlist(c.in)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v, want error %v", c.in, err, c.err)
			continue
		}
		if !c.err && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzExpandHostlist(f *testing.F) {
	for _, s := range []string{"vm", "node[01-03,07],login1", "r[1-2]n[1-2]", "n[1-", "a,,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ExpandHostlist(s)
		if err != nil {
			return
		}
		if len(names) == 0 || len(names) > maxHosts {
			t.Fatalf("%q: %d names", s, len(names))
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, "[],") {
				t.Fatalf("%q gave name %q", s, n)
			}
		}
	})
}

func TestLauncherAndJobFromEnv(t *testing.T) {
	srun := map[string]string{
		"SLURM_JOB_ID": "42", "SLURM_STEP_ID": "0", "SLURM_JOB_NAME": "gomb",
		"SLURM_CLUSTER_NAME": "c", "SLURM_JOB_PARTITION": "p", "SLURM_JOB_NODELIST": "n[1-3]",
		"SLURM_MPI_TYPE": "pmix", "SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "5", "PMIX_RANK": "0",
		"SLURM_ARRAY_JOB_ID": "40", "SLURM_ARRAY_TASK_ID": "2", "SLURM_DISTRIBUTION": "cyclic",
	}
	if got := LauncherFromEnv(srun); got != LauncherSrun {
		t.Errorf("srun: launcher %q", got)
	}
	j := JobFromEnv(srun, []string{"n1", "n2.cluster", "n1", "n2", "elsewhere"})
	want := &Job{Scheduler: "slurm", ID: "42", Step: "0", ArrayJob: "40", ArrayTask: "2", Name: "gomb",
		Cluster: "c", Partition: "p", NodeList: "n[1-3]", Nodes: []string{"n1", "n2", "n3"},
		Tasks: []int{2, 2, 0}, Distribution: "cyclic", MPIPlugin: "pmix"}
	if !reflect.DeepEqual(j, want) {
		t.Errorf("job\n%+v, want\n%+v", j, want)
	}

	// mpirun inside an allocation: Open MPI's variables win over Slurm's
	// (its daemons ran as a step with --mpi=none).
	inAlloc := map[string]string{"SLURM_JOBID": "7", "SLURM_NODELIST": "vm", "SLURM_MPI_TYPE": "none",
		"SLURM_PROCID": "0", "OMPI_COMM_WORLD_RANK": "0"}
	if got := LauncherFromEnv(inAlloc); got != LauncherMpirun {
		t.Errorf("mpirun in allocation: launcher %q", got)
	}
	if j := JobFromEnv(inAlloc, []string{"vm", "vm"}); j == nil || j.ID != "7" || !reflect.DeepEqual(j.Tasks, []int{2}) {
		t.Errorf("mpirun in allocation: job %+v", j)
	}
	hydra := map[string]string{"PMI_RANK": "0", "PMI_FD": "6", "MPIR_CVAR_CH3_INTERFACE_HOSTNAME": "vm"}
	if got := LauncherFromEnv(hydra); got != LauncherMpiexec {
		t.Errorf("hydra: launcher %q", got)
	}
	// Hydra inside an allocation, its proxies started by srun, -iface lo
	// or none.
	for _, iface := range []string{"lo", ""} {
		hydraSlurm := map[string]string{"PMI_RANK": "0", "PMI_FD": "5", "SLURM_PROCID": "0", "SLURM_STEP_ID": "0",
			"SLURM_STEP_NUM_TASKS": "1", "SLURM_JOB_ID": "9", "MPIR_CVAR_NEMESIS_TCP_NETWORK_IFACE": iface}
		if got := LauncherFromEnv(hydraSlurm); got != LauncherMpiexec {
			t.Errorf("hydra under Slurm (iface %q): launcher %q", iface, got)
		}
	}
	if got := LauncherFromEnv(map[string]string{"SLURM_PROCID": "1", "SLURM_STEP_NUM_TASKS": "2", "SLURM_MPI_TYPE": "none"}); got != LauncherSrun {
		t.Errorf("srun --mpi=none: launcher %q", got)
	}
	if JobFromEnv(hydra, []string{"vm"}) != nil {
		t.Error("a job outside Slurm")
	}
	srunPMI2 := map[string]string{"SLURM_JOB_ID": "3", "SLURM_MPI_TYPE": "pmi2", "SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "2", "PMI_RANK": "0",
		"SLURM_JOB_NODELIST": "n[1-"}
	if got := LauncherFromEnv(srunPMI2); got != LauncherSrun {
		t.Errorf("srun pmi2: launcher %q", got)
	}
	if j := JobFromEnv(srunPMI2, []string{"n1"}); j.NodeList != "n[1-" || j.Nodes != nil || j.Tasks != nil {
		t.Errorf("unreadable node list: %+v", j)
	}
	if got := LauncherFromEnv(map[string]string{}); got != "" {
		t.Errorf("singleton: launcher %q", got)
	}
}
