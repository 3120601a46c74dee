package textfmt

import (
	"strconv"
	"strings"
)

// Reading launch lines: the launcher, the process count, and what places
// the ranks on nodes.

// launchers are the programs that start MPI jobs.
var launchers = map[string]bool{"mpirun": true, "mpiexec": true, "srun": true, "aprun": true, "jsrun": true,
	"orterun": true, "prun": true, "mpirun_rsh": true, "flux": true}

// slurmLike are the launchers whose -N is the node count and whose
// default is one task a node (Slurm's srun; Flux's flux run, flux submit)
var slurmLike = map[string]bool{"srun": true, "flux": true}

// isLauncher tells whether a word of a line runs a launcher: a program
// (no assignment, "I_MPI_MPIRUN=mpirun") whose name after the last '/' is
// a launcher's, or one with a ".suffix" (mpirun.openmpi, mpiexec.hydra).
func isLauncher(w string) bool {
	return !strings.Contains(w, "=") && launchers[launcherName(w)]
}

// launcherName is the launcher a program path names: "srun" for
// "/usr/bin/srun", "mpiexec" for "mpiexec.hydra".
func launcherName(w string) string {
	w = w[strings.LastIndexByte(w, '/')+1:]
	if i := strings.IndexByte(w, '.'); i > 0 {
		w = w[:i]
	}
	return w
}

// looksLikeCommand tells a launch command from prose that names a
// launcher ("mpirun noticed that process rank 1 ... exited"): a command
// has an option, a path, a benchmark program or a continuation.
//
// A line that runs a shell variable ("mpiexec -n 2 $benchmark") is a
// script's text pasted into the log, not the launch of the table below
// it: a loop may run each test with its own -n.
func looksLikeCommand(rest []string) bool {
	for _, w := range rest {
		if strings.HasPrefix(w, "$") || strings.Contains(w, "${") {
			return false
		}
	}
	for _, w := range rest {
		if len(w) > 1 && w[0] == '-' || strings.Contains(w, "/") || w == `\` || imbProgram(w) != "" || osuProgram(w) {
			return true
		}
	}
	return false
}

// inContainer tells whether a launch command runs its program in a
// container or an environment of its own (Slurm's --environment, Pyxis's
// --container-image, Singularity, Apptainer, Sarus, ...).
func inContainer(rest []string) bool {
	for _, w := range rest {
		if strings.HasPrefix(w, "--environment") || strings.HasPrefix(w, "--container") || strings.HasPrefix(w, "--export=NONE") {
			return true
		}
		switch w[strings.LastIndexByte(w, '/')+1:] {
		case "singularity", "apptainer", "sarus", "podman", "docker", "enroot", "shifter", "ch-run":
			return true
		}
	}
	return false
}

// osuProgram tells whether a word runs an OSU test ("./osu_latency").
func osuProgram(w string) bool {
	return !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && strings.HasPrefix(w[strings.LastIndexByte(w, '/')+1:], "osu_")
}

// imbProgram is the IMB program a word runs ("IMB-P2P" for "./IMB-P2P"),
// "" for none.
func imbProgram(w string) string {
	w = w[strings.LastIndexByte(w, '/')+1:]
	switch w {
	case "IMB-MPI1", "IMB-P2P", "IMB-EXT", "IMB-NBC", "IMB-RMA", "IMB-IO", "IMB-MT", "IMB-MPI4":
		return w
	}
	return ""
}

// launch is what a launch line says of the processes and their placement.
type launch struct {
	name  string // the launcher: "srun", "mpirun", ...
	np    int
	npTok string
	// nodes: a node count the launcher was given (srun -N, jsrun's
	// resource sets over their number per host)
	nodes    int
	nodesTok string
	// hosts: a host list (-host, -hosts, -H), slots the ranks it holds
	// when every host says (a:2,b:2; 0 when none does), hydra: listed
	// with -hosts (MPICH's and Intel MPI's hydra, which place ranks
	// differently without -ppn)
	hosts    []string
	slots    []int
	hydra    bool
	hostsTok string
	ppn      int // ranks per node: -ppn, --npernode, -N (Open MPI, aprun), --ntasks-per-node, ppr:N:node
	ppnTok   string
	byNode   string // --map-by node, -rr: ranks dealt one node at a time
	// jsrun's resource sets, their number per host and tasks in each
	rs, rsPerHost, tasksPerRS int
	rsTok                     string
}

// optValue reads an option's value: "-N 2" (the next word), "-N2" or
// "--nodes=2" (attached); ok false when w is not the option. used is the
// number of words it took, tok the words as written.
func optValue(f []string, i int, names ...string) (val, tok string, used int, ok bool) {
	w := f[i]
	for _, n := range names {
		switch {
		case w == n && i+1 < len(f):
			return f[i+1], w + " " + f[i+1], 2, true
		case strings.HasPrefix(n, "--") && strings.HasPrefix(w, n+"="):
			return w[len(n)+1:], w, 1, true
		case len(n) == 2 && len(w) > 2 && strings.HasPrefix(w, n) && w[2] >= '0' && w[2] <= '9':
			return w[2:], w, 1, true // -N2, -n4
		}
	}
	return "", "", 0, false
}

// count reads a positive count; 0 for anything else (a range "2-4").
func count(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || v > maxCount {
		return 0
	}
	return v
}

// maxCount bounds the counts a launch line gives.
const maxCount = 1 << 24

// readLaunch reads the words of a launch line from the launcher on (or of
// a line that continues one).
func (c *Context) readLaunch(f []string) {
	l := &c.now.launch
	js := l.name == "jsrun"
words:
	for i := 0; i < len(f); i++ {
		w := f[i]
		if p := imbProgram(w); p != "" {
			c.Program, c.Benches = p, nil
			for _, b := range f[i+1:] {
				if strings.HasPrefix(b, "-") || strings.HasPrefix(b, "#") || b == "|" || b == "2>&1" || b == `\` ||
					strings.ContainsAny(b, "<>;&|") {
					break
				}
				c.Benches = append(c.Benches, b)
			}
			break words // what follows is the program's
		}
		if osuProgram(w) {
			break // what follows is the program's
		}
		if js {
			if v, tok, used, ok := optValue(f, i, "-n", "--nrs"); ok {
				l.rs, l.rsTok, i = count(v), join(l.rsTok, tok), i+used-1
				continue
			}
			if v, tok, used, ok := optValue(f, i, "-r", "--rs_per_host"); ok {
				l.rsPerHost, l.rsTok, i = count(v), join(l.rsTok, tok), i+used-1
				continue
			}
			if v, tok, used, ok := optValue(f, i, "-a", "--tasks_per_rs"); ok {
				l.tasksPerRS, l.rsTok, i = count(v), join(l.rsTok, tok), i+used-1
				continue
			}
		}
		if v, tok, used, ok := optValue(f, i, "-np", "-n", "--np", "-c", "--ntasks"); ok && !js {
			if l.name == "srun" && w == "-c" { // srun's -c is CPUs per task
				i += used - 1
				continue
			}
			l.np, l.npTok, i = count(v), tok, i+used-1
			continue
		}
		if slurmLike[l.name] {
			if v, tok, used, ok := optValue(f, i, "-N", "--nodes"); ok {
				l.nodes, l.nodesTok, i = count(v), l.name+" "+tok, i+used-1
				continue
			}
			if v, tok, used, ok := optValue(f, i, "--ntasks-per-node", "--tasks-per-node"); ok {
				l.ppn, l.ppnTok, i = count(v), tok, i+used-1
				continue
			}
		}
		if v, tok, used, ok := optValue(f, i, "-ppn", "-perhost", "--npernode", "-npernode", "--per-node"); ok {
			l.ppn, l.ppnTok, i = count(v), tok, i+used-1
			continue
		}
		if !slurmLike[l.name] && !js {
			if v, tok, used, ok := optValue(f, i, "-N"); ok { // Open MPI's and aprun's: per node
				l.ppn, l.ppnTok, i = count(v), tok, i+used-1
				continue
			}
		}
		if v, tok, used, ok := optValue(f, i, "--map-by", "-map-by"); ok {
			i += used - 1
			v = strings.ToLower(v)
			if ppr := strings.Split(v, ":"); len(ppr) >= 3 && ppr[0] == "ppr" && ppr[2] == "node" {
				l.ppn, l.ppnTok = count(ppr[1]), tok
			} else if v == "node" || strings.HasPrefix(v, "node:") {
				l.byNode = tok
			}
			continue
		}
		if w == "-rr" || w == "-bynode" || w == "--bynode" {
			l.byNode = w
			continue
		}
		if v, tok, used, ok := optValue(f, i, "-hosts", "-host", "--host", "-H"); ok {
			i += used - 1
			l.hosts, l.slots, l.hydra, l.hostsTok = nil, nil, w == "-hosts", tok
			all := true
			for _, h := range strings.Split(v, ",") {
				h, n, has := strings.Cut(h, ":")
				if h == "" {
					continue
				}
				l.hosts = append(l.hosts, h)
				s := 0
				if has {
					s = count(n)
				}
				all = all && s > 0
				l.slots = append(l.slots, s)
			}
			if !all {
				l.slots = nil
			}
		}
	}
	switch {
	case js && l.rs > 0 && l.tasksPerRS > 0:
		l.np, l.npTok = l.rs*l.tasksPerRS, l.rsTok
	case slurmLike[l.name] && l.np == 0 && l.nodes > 0 && l.ppn > 0: // srun -N 2 --ntasks-per-node=4
		l.np = l.nodes * l.ppn
	case slurmLike[l.name] && l.np == 0 && l.nodes > 0:
		// srun -N 2 with no task count: one task a node, Slurm's default
		// (an allocation's SLURM_NTASKS would say otherwise; a log that
		// shows one has it read from that line)
		l.np = l.nodes
	}
}

// join puts words together with a space.
func join(a ...string) string {
	var out []string
	for _, s := range a {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// nodeCount is what the launch line says of the nodes the ranks ran on, with
// the words that say it; 0 when it does not say or leaves it unsure.
func (l *launch) nodeCount() (int, string) {
	from := func(toks ...string) string { return short(join(append([]string{l.name}, toks...)...)) }
	switch {
	case l.nodes > 0:
		return l.nodes, short(l.nodesTok)
	case l.name == "jsrun" && l.rs > 0 && l.rsPerHost > 0:
		return (l.rs + l.rsPerHost - 1) / l.rsPerHost, from(l.rsTok)
	}
	if h := distinct(l.hosts); h > 0 {
		tok := from(l.npTok, l.hostsTok, l.ppnTok, l.byNode)
		switch {
		case h == 1:
			return 1, tok
		case l.ppn > 0 && l.np > 0:
			return min(h, (l.np+l.ppn-1)/l.ppn), tok
		case l.ppn > 0:
			return h, tok // the launcher starts ppn on each host
		case l.byNode != "" && l.np > 0:
			return min(h, l.np), tok
		case l.hydra:
			// without -ppn Intel MPI fills the first host, MPICH deals one
			// rank to each: unsure
			return 0, ""
		case l.np == 0:
			return h, tok // Open MPI starts a rank on every slot
		}
		// Open MPI fills the hosts' slots in order (one each unless :n)
		left, used := l.np, map[string]bool{}
		for i, host := range l.hosts {
			if left <= 0 {
				break
			}
			s := 1
			if l.slots != nil {
				s = l.slots[i]
			}
			used[host] = true
			left -= s
		}
		if left > 0 { // oversubscribed: dealt over every host
			return h, tok
		}
		return len(used), tok
	}
	if l.ppn > 0 && l.np > 0 {
		return (l.np + l.ppn - 1) / l.ppn, from(l.npTok, l.ppnTok)
	}
	return 0, ""
}

// distinct counts the different names.
func distinct(names []string) int {
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	return len(seen)
}

// short trims evidence to at most 120 bytes, at a character's start.
func short(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= 120 {
		return s
	}
	i := 117
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i] + "..."
}

// placesItself tells whether a launch line is an MPI launcher's (mpirun,
// mpiexec) that says nothing of where the ranks go (no host list, ranks
// per node or mapping), so that inside an allocation the allocation's
// own placement holds.
func (l launch) placesItself() bool {
	return (l.name == "mpirun" || l.name == "mpiexec") && len(l.hosts) == 0 && l.ppn == 0 && l.byNode == ""
}
