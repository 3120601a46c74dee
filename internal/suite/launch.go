package suite

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Launcher kinds.
const (
	Srun    = "srun"    // a job step of the allocation (or, with Submit, a job of its own)
	Mpirun  = "mpirun"  // Open MPI's mpirun
	Mpiexec = "mpiexec" // MPICH's Hydra mpiexec
)

// Launcher is how a launch starts its ranks.
type Launcher struct {
	Kind    string   // Srun, Mpirun, Mpiexec
	Program string   // the launcher's command ("" : its kind's name)
	Args    []string // more arguments for every launch (before the program)
	// Gomb is the gomb binary the ranks run.
	Gomb string
	// MPI is srun's --mpi plugin for Gomb's MPI (pmix for Open MPI, pmi2
	// for MPICH).
	MPI string
	// NoBind leaves the ranks unbound (the launcher's "none"): emulated
	// hosts and VMs whose nodes share cores.
	NoBind bool
	// Submit: srun outside an allocation, each launch a job of its own
	// (Slurm picks the nodes of a shortest-path row: --switches=1).
	Submit bool
}

// GombFamily is the MPI family ("openmpi", "mpich") of a gomb binary as
// its version says ("" when it says none).
func GombFamily(gomb string) string {
	out, _ := exec.Command(gomb, "version").Output()
	for _, fam := range []string{"openmpi", "mpich"} {
		if bytes.Contains(out, []byte("MPI build: "+fam)) {
			return fam
		}
	}
	return ""
}

func (l *Launcher) program() string {
	if l.Program != "" {
		return l.Program
	}
	return l.Kind
}

// bindWord is the placement's binding: a core a rank where ranks are
// counted by cores or are few, the socket or NUMA domain where they stand
// for a socket, a NIC or a GPU.
func bindWord(p Placement) string {
	switch p.Kind {
	case PerSocket:
		return "socket"
	case PerNIC, PerGPU:
		return "numa"
	}
	return "core"
}

// line is the launcher's command line for np ranks, perNode on each of
// hosts (all of them named, or, with byScheduler, only their number),
// running args.
func (l *Launcher) line(hosts []string, perNode int, p Placement, byScheduler string, args []string) []string {
	np := perNode * len(hosts)
	bind := bindWord(p)
	if l.NoBind {
		bind = "none"
	}
	var out []string
	switch l.Kind {
	case Srun:
		out = []string{l.program(), "--nodes=" + strconv.Itoa(len(hosts)), "--ntasks=" + strconv.Itoa(np),
			"--ntasks-per-node=" + strconv.Itoa(perNode)}
		if byScheduler != "" {
			out = append(out, byScheduler)
		} else {
			out = append(out, "--nodelist="+Compress(hosts))
		}
		if l.MPI != "" {
			out = append(out, "--mpi="+l.MPI)
		}
		srunBind := map[string]string{"core": "cores", "socket": "sockets", "numa": "ldoms", "none": "none"}[bind]
		out = append(out, "--cpu-bind="+srunBind, "--kill-on-bad-exit=1")
	case Mpirun:
		hs := make([]string, len(hosts))
		for i, h := range hosts {
			hs[i] = h + ":" + strconv.Itoa(perNode)
		}
		out = []string{l.program(), "-np", strconv.Itoa(np), "--host", strings.Join(hs, ","),
			"--map-by", fmt.Sprintf("ppr:%d:node", perNode), "--bind-to", bind}
	case Mpiexec:
		out = []string{l.program(), "-n", strconv.Itoa(np), "-hosts", strings.Join(hosts, ","),
			"-ppn", strconv.Itoa(perNode), "-bind-to", bind}
	}
	out = append(out, l.Args...)
	out = append(out, l.Gomb)
	return append(out, args...)
}

// FactsLine is the small job that gathers every node's hardware: one
// `gomb suite facts` a node, which prints its node record.
func (l *Launcher) FactsLine(hosts []string) []string {
	var out []string
	switch l.Kind {
	case Srun:
		out = []string{l.program(), "--nodes=" + strconv.Itoa(len(hosts)), "--ntasks=" + strconv.Itoa(len(hosts)),
			"--ntasks-per-node=1", "--mpi=none"}
		if !l.Submit {
			out = append(out, "--nodelist="+Compress(hosts))
		}
	case Mpirun:
		hs := make([]string, len(hosts))
		for i, h := range hosts {
			hs[i] = h + ":1"
		}
		out = []string{l.program(), "-np", strconv.Itoa(len(hosts)), "--host", strings.Join(hs, ","),
			"--map-by", "ppr:1:node", "--bind-to", "none"}
	case Mpiexec:
		out = []string{l.program(), "-n", strconv.Itoa(len(hosts)), "-hosts", strings.Join(hosts, ","), "-ppn", "1"}
	}
	out = append(out, l.Args...)
	return append(out, l.Gomb, "suite", "facts")
}
