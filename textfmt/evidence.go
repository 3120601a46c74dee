package textfmt

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// Reading the evidence of nodes and fabric from any foreign line: the job
// script's variables and directives, lines that name the hosts, and the
// MPI library's own lines.

// fabrics are the transports a log can name.
var fabrics = map[string]bool{"efa": true, "cxi": true, "verbs": true, "ucx": true, "psm2": true, "opx": true,
	"psm3": true, "tcp": true, "shm": true, "sockets": true, "mlx": true, "tofu": true}

var (
	// Intel MPI's I_MPI_DEBUG lines: "MPI startup(): libfabric provider: efa",
	// "ofi provider: verbs;ofi_rxm", and 2018's "shm and tcp data transfer modes"
	providerLine = regexp.MustCompile(`(?i)(?:libfabric|ofi) provider\s*:\s*(\S+)`)
	modesLine    = regexp.MustCompile(`MPI startup\(\):\s+(?:shm and )?(\w+) data transfer modes?`)
	// Intel MPI's rank table: "[0] MPI startup(): Rank    Pid      Node name  Pin cpu",
	// then "[0] MPI startup(): 0       41235    cn01       {0,1}"
	pinHead = regexp.MustCompile(`MPI startup\(\):\s+Rank\s+Pid\s+Node name`)
	pinRow  = regexp.MustCompile(`MPI startup\(\):\s+([0-9]+)\s+[0-9]+\s+(\S+)`)
	// Open MPI's --report-bindings: "[cn01:12345] MCW rank 0 bound to ..."
	bindingLine = regexp.MustCompile(`^\[([^:\]\s]+):[0-9]+\] MCW rank ([0-9]+) `)
	// a line that ends naming the hosts: "Point-to-point pairwise
	// experiments for nodes cn01 cn02", "Running on hosts: a b"
	namedLine = regexp.MustCompile(`(?i)(?:^|\s)(?:nodes|hosts|hostnames|nodelist)\s*[:=]?,?\s+([^\s:=,].*)$`)
	// a line that says the count: "Running Pingpong on 2 cores, 2 nodes"
	saidLine = regexp.MustCompile(`(?i)\bon (?:[0-9]+ (?:cores|processes|procs|ranks|tasks),? )?([0-9]+) nodes?\b`)
	hostName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*$`)
	// a line of host names alone: "flux-sample-2 flux-sample-12"
	bareHost = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*[0-9][A-Za-z0-9._-]*$`)
	// a count a script reports: "Number of nodes: 64", "number of process: 2048"
	countLine = regexp.MustCompile(`(?i)^number of (nodes|process|processes|procs|ranks|tasks)\s*[:=]\s*([0-9]+)$`)
	// a rank's greeting: "I am 3 of 64", "Hello from rank 3 of 64",
	// "process 3 out of 64"
	rankOfLine = regexp.MustCompile(`(?i)\b(?:I am|rank|process)\s+([0-9]+)\s+(?:of|out of)\s+([0-9]+)\b`)
	// sbatch's directives and the allocating commands: "#SBATCH --nodes=2",
	// "salloc -N 2 ..."
	allocLine = regexp.MustCompile(`^` + shellPrompt + `(?:#SBATCH|salloc|sbatch)\s`)
)

// evidence reads what a foreign line says of the nodes and the fabric.
func (c *Context) evidence(line string) {
	if line == "" {
		return
	}
	c.placement(line)
	nodes := strings.Contains(line, "ode") || strings.Contains(line, "ODE") // the regexps' words, cheaply first
	hosts := nodes || strings.Contains(line, "ost") || strings.Contains(line, "OST")
	if (strings.Contains(line, "SBATCH") || strings.Contains(line, "salloc") || strings.Contains(line, "sbatch")) &&
		allocLine.MatchString(line) {
		f := strings.Fields(line)
		for i := range f {
			if v, tok, _, ok := optValue(f, i, "-N", "--nodes"); ok {
				if n := count(v); n > 0 {
					c.now.alloc = fact{n: n, from: short(allocWord(f[:i]) + " " + tok)}
				}
			}
			if v, tok, _, ok := optValue(f, i, "-n", "--ntasks"); ok {
				if n := count(v); n > 0 {
					c.now.allocTasks = fact{n: n, from: tok}
				}
			}
		}
	}
	if m := match(hosts, namedLine, line); m != nil {
		// names without a digit only in a list that says it is one ("hosts: a b")
		listed := strings.ContainsAny(line[:len(line)-len(m[1])], ":=")
		var names []string
		for _, h := range hostWords(m[1]) {
			if !hostName.MatchString(h) || !listed && !strings.ContainsAny(h, "0123456789") {
				names = nil
				break
			}
			names = append(names, h)
		}
		if n := distinct(names); n > 1 { // one name may be the batch host alone
			c.now.named = fact{n: n, from: short(line)}
		}
	}
	if f := strings.Fields(line); len(f) > 1 && len(f) <= 16 && allMatch(bareHost, f) && distinct(f) > 1 {
		c.now.named = fact{n: distinct(f), from: short(line)}
	}
	if m := match(nodes, saidLine, line); m != nil {
		if n := count(m[1]); n > 0 {
			c.now.said = fact{n: n, from: short(line)}
		}
	}
	// a job script's own report: "Number of nodes: 64", "number of
	// process: 2048" (HPE's Slingshot validation scripts)
	if m := countLine.FindStringSubmatch(line); m != nil {
		if n := count(m[2]); n > 0 {
			if strings.EqualFold(m[1], "nodes") {
				c.now.said = fact{n: n, from: short(line)}
			} else {
				c.NP, c.now.np = n, n
			}
		}
	}
	if m := match(strings.Contains(line, " of "), rankOfLine, line); m != nil {
		if r, err := strconv.Atoi(m[1]); err == nil && r < count(m[2]) && count(m[2]) <= result.MaxNP {
			n := count(m[2])
			c.NP, c.now.np = max(c.NP, n), max(c.now.np, n)
		}
	}
	if c.fabricNew {
		c.words(line, false)
		return
	}
	c.words(line, true)
	switch {
	case strings.Contains(line, "provider"):
		if m := providerLine.FindStringSubmatch(line); m != nil {
			c.setFabric(provider(m[1]), line)
		}
	case strings.Contains(line, "data transfer mode"):
		if m := modesLine.FindStringSubmatch(line); m != nil {
			c.setFabric(imbFabric(m[1]), line)
		}
	case strings.Contains(line, "libtofucom"):
		// Fujitsu's Tofu interconnect library, in the MPI's or the
		// loader's lines (Fugaku, PRIMEHPC FX1000/FX700)
		c.setFabric("tofu", line)
	case strings.HasPrefix(line, "libfabric:"):
		// libfabric's log: "libfabric:PID:TIME:PROVIDER:SUBSYSTEM:...", since
		// 1.13 "libfabric:PID:TIME:PREFIX:PROVIDER:..." (PREFIX mostly
		// empty); the providers that log only where their hardware is
		if f := strings.SplitN(line, ":", 7); len(f) > 5 {
			p := f[3]
			if p == "" {
				p = f[4]
			}
			switch p {
			case "efa", "cxi", "opx", "psm2":
				c.setFabric(p, line)
			}
		}
	}
	if !c.fabricNew && strings.Contains(line, "cxi") {
		c.cxi(line)
	}
}

// hostWords are the host names of a list: blanks or commas between them,
// a Slurm host list expanded ("cn-[0-1]" is cn-0 and cn-1); a list that
// does not expand is left as written (and fails hostName).
func hostWords(list string) []string {
	var out []string
	for _, w := range strings.Fields(list) {
		if strings.Contains(w, "[") && smallRanges(w) {
			if hs, err := result.ExpandHostlist(strings.TrimSuffix(w, ",")); err == nil && len(hs) <= 4096 {
				out = append(out, hs...)
				continue
			}
		}
		out = append(out, strings.FieldsFunc(w, func(r rune) bool { return r == ',' })...)
	}
	return out
}

// smallRanges: a host list whose numbers have four digits at most, so
// that its expansion stays small whatever a corrupt line says.
func smallRanges(w string) bool {
	digits := 0
	for _, r := range w {
		if r >= '0' && r <= '9' {
			if digits++; digits > 4 {
				return false
			}
		} else {
			digits = 0
		}
	}
	return len(w) <= 256
}

// match is re's submatches in line where may, else nil.
func match(may bool, re *regexp.Regexp, line string) []string {
	if !may {
		return nil
	}
	return re.FindStringSubmatch(line)
}

// allMatch tells whether every word matches re.
func allMatch(re *regexp.Regexp, words []string) bool {
	for _, w := range words {
		if !re.MatchString(w) {
			return false
		}
	}
	return true
}

// allocWord is how an allocation line begins: "#SBATCH", "salloc".
func allocWord(f []string) string {
	for _, w := range f {
		if w == "#SBATCH" || w == "salloc" || w == "sbatch" {
			return w
		}
	}
	return ""
}

// placement reads the MPI library's own lines that say on which host
// each rank runs; a new table replaces the one before.
func (c *Context) placement(line string) {
	var host string
	switch {
	case !strings.Contains(line, "MPI startup()") && !strings.Contains(line, "MCW rank"):
		c.pinTable = false
		return
	case pinHead.MatchString(line):
		c.pinTable, c.placedHosts, c.pinRanks = true, nil, 0
		return
	case c.pinTable:
		m := pinRow.FindStringSubmatch(line)
		if m == nil {
			c.pinTable = false
			return
		}
		host = m[2]
		// the table has a row for every rank: the process count
		if r, err := strconv.Atoi(m[1]); err == nil && r >= 0 && r < result.MaxNP {
			c.pinRanks = max(c.pinRanks, r+1)
			c.NP, c.now.np = c.pinRanks, c.pinRanks
		}
	default:
		m := bindingLine.FindStringSubmatch(line)
		if m == nil {
			return
		}
		if m[2] == "0" {
			c.placedHosts = nil
		}
		host = m[1]
	}
	if !slices.Contains(c.placedHosts, host) {
		c.placedHosts = append(c.placedHosts, host)
	}
	what := "I_MPI_DEBUG rank table:"
	if !c.pinTable {
		what = "--report-bindings:"
	}
	c.now.placed = fact{n: len(c.placedHosts), from: short(what + " " + strings.Join(c.placedHosts, " "))}
}

// words reads the assignments of a line (exported, printed or given to
// the launcher: FI_PROVIDER=efa, -x UCX_TLS=rc, -genv I_MPI_FABRICS shm,
// --mca pml ucx) for the nodes and, with fabric, the fabric they name.
func (c *Context) words(line string, fabric bool) {
	if !strings.Contains(line, "=") && !strings.Contains(line, "mca") && !strings.Contains(line, "env") {
		return
	}
	f := strings.Fields(line)
	for i, w := range f {
		var k, v string
		switch {
		case (w == "--mca" || w == "-mca" || w == "--gmca" || w == "-gmca") && i+2 < len(f):
			k, v = "OMPI_MCA_"+f[i+1], f[i+2]
		case (w == "-genv" || w == "-env") && i+2 < len(f) && !strings.Contains(f[i+1], "="):
			k, v = f[i+1], f[i+2]
		default:
			var ok bool
			if k, v, ok = strings.Cut(w, "="); !ok {
				continue
			}
			k = k[strings.LastIndexAny(k, "(:[")+1:]
		}
		v = strings.Trim(v, `"'`)
		switch k {
		case "SLURM_NNODES", "SLURM_JOB_NUM_NODES":
			if n := count(v); n > 0 {
				c.now.alloc = fact{n: n, from: short(k + "=" + v)}
			}
			continue
		}
		if fabric && !c.fabricNew {
			c.setFabric(fabricOf(k, v), line)
		}
	}
}

// fabricOf is the fabric a variable names ("" none, or unsure).
func fabricOf(k, v string) string {
	v = strings.ToLower(v)
	if strings.HasPrefix(v, "^") { // an exclusion list
		return ""
	}
	switch k {
	case "FI_PROVIDER", "I_MPI_OFI_PROVIDER", "MPIR_CVAR_OFI_USE_PROVIDER", "OMPI_MCA_mtl_ofi_provider_include",
		"OMPI_MCA_opal_common_ofi_provider_include":
		return provider(v)
	case "I_MPI_FABRICS":
		_, inter, _ := strings.Cut(v, ":") // shm:ofi; "shm" alone is shared memory
		if inter == "" {
			inter = v
		}
		return imbFabric(inter)
	case "UCX_TLS":
		return ucxTLS(v)
	case "UCX_NET_DEVICES":
		if strings.HasPrefix(v, "mlx") {
			return "ucx"
		}
	case "OMPI_MCA_pml":
		if v == "ucx" {
			return "ucx"
		}
	case "MPIR_CVAR_CH4_NETMOD":
		if v == "ucx" {
			return "ucx"
		}
	case "OMPI_MCA_mtl":
		if v == "psm2" {
			return "psm2"
		}
	case "OMPI_MCA_btl":
		return btl(v)
	}
	return ""
}

// provider reads a libfabric provider list ("verbs;ofi_rxm", "efa"): the
// first, where it is a fabric.
func provider(v string) string {
	p, _, _ := strings.Cut(strings.ToLower(strings.Trim(v, `"',.`)), ";")
	p, _, _ = strings.Cut(p, ",")
	if fabrics[p] {
		return p
	}
	return ""
}

// imbFabric reads Intel MPI's fabric names (I_MPI_FABRICS, 2018's
// transfer modes): ofi says nothing until its provider does.
func imbFabric(v string) string {
	switch v {
	case "shm", "tcp":
		return v
	case "ofa":
		return "verbs"
	}
	return ""
}

// ucxTLS reads UCX_TLS: the InfiniBand transports are UCX's, TCP alone is
// TCP, shared memory alone is shm; device copies say nothing.
func ucxTLS(v string) string {
	var ib, tcp, shm, other bool
	for _, t := range strings.Split(v, ",") {
		base, _, _ := strings.Cut(t, "_")
		switch {
		case base == "rc" || base == "dc" || base == "ud":
			ib = true
		case t == "tcp":
			tcp = true
		case t == "sm" || t == "shm" || t == "self" || t == "posix" || t == "sysv" || t == "cma" || t == "knem" || t == "xpmem":
			shm = true
		case strings.HasPrefix(t, "cuda") || strings.HasPrefix(t, "rocm") || t == "gdr_copy" || t == "ze_copy":
		default:
			other = true
		}
	}
	switch {
	case other:
		return ""
	case ib:
		return "ucx"
	case tcp:
		return "tcp"
	case shm:
		return "shm"
	}
	return ""
}

// btl reads Open MPI's --mca btl list.
func btl(v string) string {
	list := strings.Split(v, ",")
	switch {
	case slices.Contains(list, "openib"):
		return "verbs"
	case slices.Contains(list, "uct"):
		return "ucx"
	case slices.Contains(list, "ofi"):
		return ""
	case slices.Contains(list, "tcp"):
		return "tcp"
	}
	for _, b := range list {
		if b != "self" && b != "vader" && b != "sm" && b != "smcuda" {
			return ""
		}
	}
	return "shm"
}

// cxi reads HPE Slingshot's CXI devices in Cray MPICH's lines about its
// NICs ("MPICH_OFI_NIC_VERBOSE": "... NIC ... domain_name=cxi0"); prose
// about "the CXI provider" names no fabric a run used.
func (c *Context) cxi(line string) {
	if !strings.Contains(line, "MPICH") && !strings.Contains(line, "NIC") {
		return
	}
	for _, t := range strings.FieldsFunc(line, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if strings.HasPrefix(t, "cxi") && strings.Trim(t[3:], "0123456789") == "" {
			c.setFabric("cxi", line)
			return
		}
	}
}

// setFabric keeps the first fabric a run's lines name.
func (c *Context) setFabric(name, line string) {
	if name == "" || c.fabricNew {
		return
	}
	c.fabric, c.fabricNew = fact{name: name, from: short(line)}, true
}
