package textfmt

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// What a log says around its tables (launch lines, exported variables,
// host names) and how it labels the runs.

// Context is what foreign lines say about the runs that follow: the
// launcher command, the hosts, exported variables.
type Context struct {
	command string
	NP      int
	hosts   []string
	ppn     int
	env     map[string]string
	Benches []string // benchmark names after the IMB-MPI1 program name
}

// NPInName finds the process count in a file name ("imb-np64.log").
var NPInName = regexp.MustCompile(`np[_-]?([0-9]+)`)

// exportRe: "export I_MPI_FABRICS=shm:ofi", also after a shell prompt ("$ ").
var exportRe = regexp.MustCompile(`^\s*(?:\S*[$#>%]\s+)?export\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*)`)

// Note learns from a line that is not part of a table.
func (c *Context) Note(line string) {
	if m := exportRe.FindStringSubmatch(line); m != nil {
		if c.env == nil {
			c.env = map[string]string{}
		}
		c.env[m[1]] = m[2]
		return
	}
	f := strings.Fields(line)
	launcher := false
	for i := 0; i < len(f); i++ {
		switch w := f[i]; {
		case strings.HasSuffix(w, "mpirun") || strings.HasSuffix(w, "mpiexec") || w == "srun" ||
			strings.HasPrefix(w, "mpirun.") || strings.HasPrefix(w, "mpiexec."):
			launcher = true
			c.command = strings.Join(f[i:], " ")
			c.Benches = nil
		case launcher && (w == "-np" || w == "-n" || w == "--np" || w == "-c") && i+1 < len(f):
			if v, err := strconv.Atoi(f[i+1]); err == nil {
				c.NP = v
			}
			i++
		case launcher && (w == "-hosts" || w == "-host" || w == "--host" || w == "-H") && i+1 < len(f):
			c.hosts = nil
			for _, h := range strings.Split(f[i+1], ",") {
				if h, _, _ = strings.Cut(h, ":"); h != "" {
					c.hosts = append(c.hosts, h)
				}
			}
			i++
		case launcher && (w == "-ppn" || w == "--npernode" || w == "-npernode") && i+1 < len(f):
			c.ppn, _ = strconv.Atoi(f[i+1])
			i++
		case launcher && strings.HasSuffix(w, "IMB-MPI1"):
			for _, b := range f[i+1:] {
				if strings.HasPrefix(b, "-") || strings.HasPrefix(b, "#") || b == "|" || b == "2>&1" {
					break
				}
				c.Benches = append(c.Benches, b)
			}
		}
	}
}

// Apply puts the Context into a new run and starts afresh.
func (c *Context) Apply(run *result.Run) {
	if c.command != "" {
		run.Source.Meta["launch"] = c.command
	}
	if len(c.env) > 0 {
		run.Env = c.env
	}
	run.Hosts = c.hosts
	run.WorldSize = c.NP // what the launcher was told; the tables may say more
	*c = Context{NP: c.NP, hosts: c.hosts, ppn: c.ppn, Benches: c.Benches}
}

// Locality is what the launch says about where the ranks were.
func (c *Context) Locality() string {
	if len(c.hosts) > 1 && c.ppn == 1 {
		return result.InterNode
	}
	return ""
}
