package result

import (
	"fmt"
	"strconv"
	"strings"
)

// Job is the batch job a run ran in, as its scheduler describes it to the
// ranks (Slurm's SLURM_* variables of rank 0). Absent outside a scheduler.
type Job struct {
	Scheduler string `json:"scheduler"` // "slurm"
	ID        string `json:"id"`        // SLURM_JOB_ID
	// Step is the job step the ranks (or, under mpirun and mpiexec, the
	// launcher's daemons) ran as.
	Step      string `json:"step,omitempty"`
	ArrayJob  string `json:"array_job,omitempty"`  // SLURM_ARRAY_JOB_ID
	ArrayTask string `json:"array_task,omitempty"` // SLURM_ARRAY_TASK_ID
	Name      string `json:"name,omitempty"`
	Cluster   string `json:"cluster,omitempty"`
	Partition string `json:"partition,omitempty"`
	// NodeList is the allocation as Slurm writes it ("node[01-04]"), Nodes
	// the same expanded, in Slurm's order.
	NodeList string   `json:"node_list,omitempty"`
	Nodes    []string `json:"nodes,omitempty"`
	// Tasks is the task layout: how many ranks ran on each of Nodes (from
	// the ranks' hosts; a node of the allocation left unused counts 0).
	Tasks []int `json:"tasks,omitempty"`
	// Distribution is srun's -m (SLURM_DISTRIBUTION), when given.
	Distribution string `json:"distribution,omitempty"`
	// MPIPlugin is srun's --mpi (SLURM_MPI_TYPE): "pmix", "pmi2", "none".
	MPIPlugin string `json:"mpi_plugin,omitempty"`
}

// Launchers, as Run.Launcher names them.
const (
	LauncherSrun    = "srun"
	LauncherMpirun  = "mpirun"  // Open MPI's mpirun / mpiexec (ORTE)
	LauncherMpiexec = "mpiexec" // MPICH's Hydra mpiexec / mpirun
)

// LauncherFromEnv says which launcher started rank 0, from its environment
// (all of it, not Env's selection): Open MPI's mpirun sets
// OMPI_COMM_WORLD_RANK; MPICH's Hydra sets PMI_RANK and, with its
// interface options, MPIR_CVAR_CH3_INTERFACE_HOSTNAME or
// MPIR_CVAR_NEMESIS_TCP_NETWORK_IFACE; srun sets SLURM_PROCID and
// SLURM_STEP_NUM_TASKS, and PMI_RANK only through its pmi2 plugin (Hydra's
// proxies, which srun may start inside an allocation, pass on the step's
// SLURM_ variables but not SLURM_MPI_TYPE). "" when none of them says so
// (a singleton).
func LauncherFromEnv(env map[string]string) string {
	switch {
	case env["OMPI_COMM_WORLD_RANK"] != "":
		return LauncherMpirun
	case env["MPIR_CVAR_CH3_INTERFACE_HOSTNAME"] != "" || env["MPIR_CVAR_NEMESIS_TCP_NETWORK_IFACE"] != "":
		return LauncherMpiexec
	case env["SLURM_PROCID"] != "" && env["SLURM_STEP_NUM_TASKS"] != "":
		if env["PMI_RANK"] != "" && !strings.HasPrefix(env["SLURM_MPI_TYPE"], "pmi") {
			return LauncherMpiexec
		}
		return LauncherSrun
	case env["PMI_RANK"] != "":
		return LauncherMpiexec
	}
	return ""
}

// EnvMap is environ (KEY=VALUE strings) as a map.
func EnvMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// JobFromEnv reads the Slurm job of rank 0's environment and lays the
// ranks' hosts (rank order) out over its nodes. nil outside Slurm. An
// unreadable node list is kept as written, with no Nodes or Tasks.
func JobFromEnv(env map[string]string, rankHosts []string) *Job {
	id := env["SLURM_JOB_ID"]
	if id == "" {
		id = env["SLURM_JOBID"]
	}
	if id == "" {
		return nil
	}
	j := &Job{
		Scheduler:    "slurm",
		ID:           id,
		Step:         env["SLURM_STEP_ID"],
		ArrayJob:     env["SLURM_ARRAY_JOB_ID"],
		ArrayTask:    env["SLURM_ARRAY_TASK_ID"],
		Name:         env["SLURM_JOB_NAME"],
		Cluster:      env["SLURM_CLUSTER_NAME"],
		Partition:    env["SLURM_JOB_PARTITION"],
		NodeList:     env["SLURM_JOB_NODELIST"],
		Distribution: env["SLURM_DISTRIBUTION"],
		MPIPlugin:    env["SLURM_MPI_TYPE"],
	}
	if j.NodeList == "" {
		j.NodeList = env["SLURM_NODELIST"]
	}
	if nodes, err := ExpandHostlist(j.NodeList); err == nil {
		j.Nodes = nodes
		j.Tasks = layout(nodes, rankHosts)
	}
	return j
}

// layout counts the ranks on each node. A host is matched to a node by its
// name or its first label ("node07.cluster" is node07).
func layout(nodes, rankHosts []string) []int {
	if len(nodes) == 0 || len(rankHosts) == 0 {
		return nil
	}
	at := map[string]int{}
	for i, n := range nodes {
		at[n] = i
	}
	tasks := make([]int, len(nodes))
	for _, h := range rankHosts {
		i, ok := at[h]
		if !ok {
			short, _, _ := strings.Cut(h, ".")
			if i, ok = at[short]; !ok {
				continue
			}
		}
		tasks[i]++
	}
	return tasks
}

// ExpandHostlist expands a Slurm host list: "node[01-03,07],login1" is
// node01 node02 node03 node07 login1; several bracket groups in one name
// multiply ("r[1-2]n[1-2]": r1n1 r1n2 r2n1 r2n2); a range keeps its low
// bound's zero padding. Names come out in the list's order, as Slurm gives
// them.
func ExpandHostlist(list string) ([]string, error) {
	var out []string
	for _, item := range splitTop(list) {
		if item == "" {
			continue
		}
		names, err := expandName(item)
		if err != nil {
			return nil, fmt.Errorf("host list %q: %v", list, err)
		}
		out = append(out, names...)
		if len(out) > maxHosts {
			return nil, fmt.Errorf("host list %q: more than %d hosts", list, maxHosts)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("host list %q: empty", list)
	}
	return out, nil
}

// maxHosts bounds an expansion (a malformed range must not exhaust memory).
const maxHosts = 1 << 20

// splitTop splits at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func expandName(s string) ([]string, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		if strings.ContainsAny(s, "]") {
			return nil, fmt.Errorf("unmatched ]")
		}
		return []string{s}, nil
	}
	closing := strings.IndexByte(s[open:], ']')
	if closing < 0 {
		return nil, fmt.Errorf("unmatched [")
	}
	closing += open
	prefix, body, rest := s[:open], s[open+1:closing], s[closing+1:]
	if strings.ContainsAny(prefix, "]") || strings.ContainsAny(body, "[") {
		return nil, fmt.Errorf("nested or unmatched brackets")
	}
	var mids []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if lo == "" || hi == "" || err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("bad range %q", r)
		}
		if b-a >= maxHosts {
			return nil, fmt.Errorf("range %q is too long", r)
		}
		for n := a; n <= b; n++ {
			mids = append(mids, fmt.Sprintf("%0*d", len(lo), n))
		}
	}
	tails, err := expandName(rest)
	if err != nil {
		return nil, err
	}
	if len(mids)*len(tails) > maxHosts {
		return nil, fmt.Errorf("more than %d hosts", maxHosts)
	}
	var out []string
	for _, m := range mids {
		for _, t := range tails {
			out = append(out, prefix+m+t)
		}
	}
	return out, nil
}
