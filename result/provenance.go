package result

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// EnvPrefixes are the launcher and fabric variables kept in a Run record,
// and gomb's fault injection (a run it shaped must say so).
var EnvPrefixes = []string{"OMPI_", "MPICH_", "MPIR_CVAR_", "HYDRA_", "I_MPI_", "FI_", "UCX_", "SLURM_", "PMIX_", "PMI_", "GOMB_FAULT"}

// Env returns the variables of environ (KEY=VALUE strings) that start with
// one of EnvPrefixes.
func Env(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for _, p := range EnvPrefixes {
			if strings.HasPrefix(k, p) {
				out[k] = v
				break
			}
		}
	}
	return out
}

// CPUList formats CPU numbers as a Linux CPU list: [0 1 2 5] -> "0-2,5".
func CPUList(cpus []int) string {
	c := append([]int(nil), cpus...)
	sort.Ints(c)
	var b strings.Builder
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(c[j]))
		}
		i = j + 1
	}
	return b.String()
}

// ParseCPUList reads a Linux CPU list as CPUList writes it ("0-2,5"),
// sorted and without repeats; ok is false for an empty or malformed one.
func ParseCPUList(s string) (cpus []int, ok bool) {
	if strings.TrimSpace(s) == "" {
		return nil, false
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, ranged := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && ranged {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b-a > 1<<16 {
			return nil, false
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	sort.Ints(cpus)
	return slices.Compact(cpus), true
}

// Locality classifies the hosts of a set of ranks.
func Locality(hosts []string) (string, int) {
	seen := map[string]bool{}
	for _, h := range hosts {
		seen[h] = true
	}
	switch {
	case len(seen) <= 1:
		return IntraNode, len(seen)
	case len(seen) == len(hosts):
		return InterNode, len(seen)
	default:
		return Mixed, len(seen)
	}
}

// CommonLocality of a set of results: their locality when they agree,
// Mixed when they do not, "" when none says.
func CommonLocality(rs []*Result) string {
	locs := make([]string, len(rs))
	for i, r := range rs {
		locs[i] = r.Locality
	}
	return JoinLocality(locs)
}

// JoinLocality of several localities: the one they agree on, Mixed when
// they differ, "" when none is known.
func JoinLocality(locs []string) string {
	loc := ""
	for _, l := range locs {
		switch {
		case l == "":
		case loc == "":
			loc = l
		case loc != l:
			return Mixed
		}
	}
	return loc
}

// MPIName shortens MPI_Get_library_version to the library and version
// ("Open MPI v4.1.4", "MPICH 4.0.2"), or names the MPI by what the run says.
func (r *Run) MPIName() string {
	switch name := LibraryName(r.MPI.Library); {
	case name != "":
		return name
	case r.Env["I_MPI_FABRICS"] != "" || r.Env["I_MPI_DEBUG"] != "":
		return "Intel MPI"
	}
	return r.MPI.Impl
}

// LibraryName shortens MPI_Get_library_version's string to the library
// and version ("Open MPI v4.1.4", "MPICH 4.0.2"); "" for an empty one.
func LibraryName(lib string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(lib), "\n")
	switch {
	case strings.HasPrefix(first, "Open MPI"):
		name, _, _ := strings.Cut(first, ",")
		return name
	case strings.HasPrefix(first, "MPICH Version:"):
		return "MPICH " + strings.TrimSpace(strings.TrimPrefix(first, "MPICH Version:"))
	case strings.HasPrefix(first, "Intel(R) MPI"):
		name, _, _ := strings.Cut(first, " for ")
		return name
	}
	return first
}
