package textfmt

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// What a log says around its tables (launch lines, exported variables,
// host names, the MPI library's own lines) and how it labels the runs.

// Context is what foreign lines say about the runs that follow: the
// launcher command, the hosts, exported variables, and the evidence of
// how many nodes the ranks ran on and which fabric carried their
// messages.
type Context struct {
	command string
	// NP is the process count the last launch line gave (0: none).
	NP  int
	env map[string]string
	// Benches are the benchmark names after the IMB program's name.
	Benches []string
	// Program is the IMB program the last launch line runs ("IMB-MPI1",
	// "IMB-P2P", "IMB-EXT", ...; "" when it names none).
	Program string

	cont bool // the last launch line ended with '\': the next line goes on with it
	// now: what the lines so far say of the ranks' placement; run: what
	// they said when the current run began (lines after its title are
	// the next run's)
	now, run    placement
	memo        nodesMemo // Nodes' answer for the current run, at one world
	placedHosts []string
	pinTable    bool // inside Intel MPI's "Rank Pid Node name" table
	pinRanks    int  // the ranks that table listed
	// fabric: the transport the log names; fabricNew: named since the
	// last Apply (the first clear line of each run wins, and a run
	// without one keeps the one before: an export stays in the shell).
	fabric    fact
	fabricNew bool
}

// placement is the evidence of the nodes the ranks ran on.
type placement struct {
	np     int    // the launch line's process count
	launch launch // what the last launch line said
	// alloc: the nodes of the job's allocation (salloc, sbatch, #SBATCH,
	// SLURM_NNODES); named: the hosts a line names for the run after it
	// ("nodes cn01 cn02"); said: a count a line says ("on 2 nodes");
	// placed: the hosts of the ranks as the MPI library printed them
	alloc, named, said, placed fact
	// allocTasks: the allocation's task count (salloc -n, #SBATCH
	// --ntasks), which the MPI launchers take their placement from
	allocTasks fact
}

// nodesMemo keeps Nodes' answer: readers ask for every row.
type nodesMemo struct {
	ok       bool
	world, n int
	from     string
}

// fact is one piece of evidence: a value and the text it was read from.
type fact struct {
	n    int    // a count (nodes)
	name string // a name (fabric)
	from string // the evidence, verbatim and short
}

// NPInName finds the process count in a file name ("imb-np64.log").
var NPInName = regexp.MustCompile(`np[_-]?([0-9]+)`)

// exportRe: "export I_MPI_FABRICS=shm:ofi", also after a shell prompt ("$ ").
// shellPrompt is a shell's prompt before a command pasted into a log:
// "$ ", "login1$ ", "[user@host ~]$ ".
const shellPrompt = `(?:\[[^\]]*\][$#>%]\s*|\S*[$#>%]\s+)?`

var exportRe = regexp.MustCompile(`^\s*` + shellPrompt + `export\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*)`)

// Note learns from a line that is not part of a table.
func (c *Context) Note(line string) {
	line = strings.TrimSpace(line)
	f := strings.Fields(line)
	launcher := -1
	for i, w := range f {
		if isLauncher(w) && looksLikeCommand(f[i+1:]) {
			launcher = i
			break
		}
	}
	cont := c.cont && looksLikeCommand(f)
	if launcher >= 0 && inContainer(f[launcher+1:]) || cont && inContainer(f) {
		// the run's environment is the container's, which the log does
		// not show: what earlier lines named of the fabric may not hold
		c.fabric, c.fabricNew = fact{}, false
	}
	c.evidence(line)
	if m := exportRe.FindStringSubmatch(line); m != nil {
		if c.env == nil {
			c.env = map[string]string{}
		}
		c.env[m[1]] = m[2]
		c.cont = false
		return
	}
	start := -1
	if cont { // the launch line goes on
		start = 0
		c.command += " " + line
	}
	c.cont = false
	if start < 0 && launcher >= 0 {
		start = launcher
		c.newLaunch(launcherName(f[start]), strings.Join(f[start:], " "))
	}
	if start < 0 {
		return
	}
	c.cont = f[len(f)-1] == `\`
	c.readLaunch(f[start:])
	if c.now.launch.np > 0 {
		c.NP = c.now.launch.np
	}
	c.now.np = c.NP
}

// newLaunch starts afresh from a launch line: what an earlier one said of
// the processes and their placement does not carry over to it.
func (c *Context) newLaunch(name, command string) {
	c.command, c.NP, c.Benches, c.Program = command, 0, nil, ""
	c.now.launch, c.now.np = launch{name: name}, 0
	c.now.placed, c.placedHosts = fact{}, nil
}

// Apply puts the Context into a new run (the launch command as Meta
// "launch", the fabric, the environment, the hosts) and starts afresh:
// what later lines say is the next run's.
//
// Meta "fabric" is the transport the log names, lower case, one of efa,
// cxi, verbs, ucx, psm2, opx, psm3, tcp, shm, sockets, mlx, tofu, and
// "fabric_from" the line that names it (at most 120 bytes), for the
// analysis.
func (c *Context) Apply(run *result.Run) {
	meta := run.Source.Meta
	if c.command != "" {
		meta["launch"] = c.command
	}
	if c.fabric.name != "" {
		meta["fabric"], meta["fabric_from"] = c.fabric.name, c.fabric.from
	}
	if len(c.env) > 0 {
		run.Env = c.env
	}
	run.Hosts = c.now.launch.hosts
	run.WorldSize = c.NP // what the launcher was told; the tables may say more
	c.run, c.memo = c.now, nodesMemo{}
	c.command, c.env, c.fabricNew, c.cont, c.pinTable = "", nil, false, false, false
}

// Place keeps in a run's Source.Meta, for the analysis, the number of
// nodes its ranks ran on as "nodes" (decimal) and the evidence as
// "nodes_from", verbatim and short ("srun -N 2", "mpirun -np 2 -hosts
// cn01,cn02 -ppn 1", "#SBATCH --nodes=2", "SLURM_NNODES=2", "nodes cn01
// cn02", "I_MPI_DEBUG rank table: cn01 cn02"); neither when the log leaves
// it unsure. world is the number of processes the run started as far as
// the reader knows (0: the launch line's).
func (c *Context) Place(run *result.Run, world int) {
	if n, from := c.Nodes(world); n > 0 {
		run.Source.Meta["nodes"], run.Source.Meta["nodes_from"] = strconv.Itoa(n), from
	}
}

// Nodes is the number of nodes the current run's ranks ran on and its
// evidence; 0 when the log does not say or leaves it unsure. world is as
// Place's. The MPI library's own lines come first, then the launch line,
// then a line that says the count, then one naming one host for each
// rank ("nodes A B" before a pairwise test), then the allocation where
// the launcher takes all of it (srun) or it is one node.
func (c *Context) Nodes(world int) (int, string) {
	if world == 0 {
		world = c.run.np
	}
	if m := c.memo; m.ok && m.world == world {
		return m.n, m.from
	}
	n, from := c.nodes(world)
	c.memo = nodesMemo{ok: true, world: world, n: n, from: from}
	return n, from
}

func (c *Context) nodes(world int) (int, string) {
	p := &c.run
	if p.placed.n > 0 {
		return p.placed.n, p.placed.from
	}
	if n, from := p.launch.nodeCount(); n > 0 {
		return n, from
	}
	if p.said.n > 0 {
		return p.said.n, p.said.from
	}
	if p.named.n > 0 && p.named.n == world {
		return p.named.n, p.named.from
	}
	switch a := p.alloc; {
	case a.n == 1:
		return 1, a.from
	case a.n > 1 && p.launch.name == "srun" && world > 0:
		// a job step spreads over the whole allocation, but never over
		// more nodes than it has tasks
		return min(a.n, world), a.from
	case a.n > 1 && p.launch.name == "srun":
		return a.n, a.from
	case a.n > 1 && world > 0 && p.allocTasks.n == world && world >= a.n && p.launch.placesItself():
		// mpirun or mpiexec inside an allocation, told nothing of where
		// the ranks go, starts its tasks where Slurm put them: every
		// node of the allocation holds one at least
		return a.n, short(a.from + " " + p.allocTasks.from)
	}
	return 0, ""
}

// Locality is what the evidence says about where the current run's ranks
// were: intra-node on one node, inter-node where every rank has a node of
// its own (one per node, or as many ranks as nodes), "" when unsure. world
// is as Place's.
func (c *Context) Locality(world int) string {
	if world == 0 {
		world = c.run.np
	}
	n, _ := c.Nodes(world)
	switch {
	case n == 1:
		return result.IntraNode
	case n > 1 && (c.run.launch.ppn == 1 || world == n):
		return result.InterNode
	}
	return ""
}
