package suite

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Where says where a suite runs, as its command line and environment
// say it.
type Where struct {
	Hostfile string // -hostfile: the nodes, for mpirun or mpiexec
	Nodes    string // -nodes: a Slurm host list of the nodes
	Topology string // -topology: topology.conf or scontrol show topology's output
	Fleet    string // -fleet: a gomb fleet sweep's records
	// Launcher is -launcher: auto, srun, mpirun or mpiexec, with
	// =PROGRAM for the launcher's command (mpiexec=mpirun.mpich).
	Launcher string
	Submit   bool // -submit: srun outside an allocation
	// MPI is the gomb binary's MPI family ("openmpi", "mpich"): the
	// launcher auto picks for a hostfile, and srun's --mpi plugin.
	MPI    string
	Getenv func(string) string
	// Scontrol runs `scontrol show topology` (nil: exec.Command).
	Scontrol func() ([]byte, error)
}

// Locate builds the allocation (its nodes and the network's topology)
// and the launcher's kind and program from w. Node facts are the
// caller's to add (a facts job, or a file).
func Locate(w Where) (*Allocation, Launcher, error) {
	getenv := w.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	a := &Allocation{}
	var l Launcher
	kind, prog, _ := strings.Cut(w.Launcher, "=")
	if kind == "" {
		kind = "auto"
	}
	slurmNodes, slurmSource, err := SlurmNodes(getenv)
	if err != nil {
		return nil, l, err
	}
	switch {
	case w.Hostfile != "":
		f, err := os.Open(w.Hostfile)
		if err != nil {
			return nil, l, fmt.Errorf("-hostfile: %v", err)
		}
		defer f.Close()
		if a.Nodes, err = ParseHostfile(f, w.Hostfile); err != nil {
			return nil, l, fmt.Errorf("-hostfile: %v", err)
		}
		a.Source = "hostfile " + w.Hostfile
	case w.Nodes != "":
		if a.Nodes, err = ExpandHostlistUnique(w.Nodes); err != nil {
			return nil, l, fmt.Errorf("-nodes: %v", err)
		}
		a.Source = "-nodes " + w.Nodes
	case slurmNodes != nil:
		a.Nodes, a.Source = slurmNodes, slurmSource
	default:
		return nil, l, fmt.Errorf("no nodes: run inside a Slurm allocation (salloc, sbatch), or give -hostfile FILE for " +
			"mpirun and mpiexec, or -nodes LIST")
	}
	switch kind {
	case "auto":
		switch {
		case w.Hostfile != "" && w.MPI == "mpich":
			kind = Mpiexec
		case w.Hostfile != "":
			kind = Mpirun
		default:
			kind = Srun
		}
	case Srun, Mpirun, Mpiexec:
	default:
		return nil, l, fmt.Errorf("-launcher %s: want auto, srun, mpirun or mpiexec (=PROGRAM for its command)", w.Launcher)
	}
	l.Kind, l.Program, l.Submit = kind, prog, w.Submit
	switch {
	case kind == Srun && !w.Submit && slurmNodes == nil:
		return nil, l, fmt.Errorf("srun runs job steps inside an allocation, and this is none (no SLURM_JOB_ID): " +
			"run gomb suite under salloc or sbatch, give -submit for a job a launch, or -hostfile for mpirun")
	case w.Submit && kind != Srun:
		return nil, l, fmt.Errorf("-submit is srun's (a job a launch); -launcher %s runs in an allocation or on a hostfile", kind)
	}
	if kind == Srun {
		l.MPI = map[string]string{"openmpi": "pmix", "mpich": "pmi2"}[w.MPI]
	}
	switch {
	case w.Topology != "":
		if a.Tree, err = ReadTree(w.Topology); err != nil {
			return nil, l, fmt.Errorf("-topology: %v", err)
		}
	case w.Fleet != "":
		if a.Fleet, err = ReadFleet(w.Fleet); err != nil {
			return nil, l, fmt.Errorf("-fleet: %v", err)
		}
	case slurmNodes != nil || w.Submit:
		run := w.Scontrol
		if run == nil {
			run = func() ([]byte, error) { return exec.Command("scontrol", "show", "topology").Output() }
		}
		if out, err := run(); err == nil {
			t, err := ParseTree(strings.NewReader(string(out)), "scontrol show topology")
			if err != nil {
				return nil, l, err
			}
			a.Tree = t
		}
	}
	return a, l, nil
}

// ExpandHostlistUnique is a Slurm host list's nodes, each once.
func ExpandHostlistUnique(list string) ([]string, error) {
	hs, err := expandHostlist(list)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, h := range hs {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out, nil
}
