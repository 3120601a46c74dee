package mpi

import (
	"regexp"
	"sort"
	"strings"
)

// Build is what the mpi.h a binary was compiled against says of the
// library: decided by the header's own macros, so any MPI's compiler
// wrapper (mpicc, Cray's cc, mpiicx) builds gomb without a build tag.
type Build struct {
	// Family is "openmpi" (Open MPI and what is built on it), "mpich"
	// (MPICH and its ABI-compatible derivatives: Intel MPI, MVAPICH, Cray
	// MPICH), "abi" (the MPI-5 standard ABI's header), "other", or "none"
	// (built without cgo).
	Family string
	// Header names the library and version the header's macros carry,
	// e.g. "Open MPI 4.1.4", "MPICH 4.0.2", "Intel MPI 2021.10".
	Header string
	// Standard is the header's MPI_VERSION.MPI_SUBVERSION.
	Standard string
	// Features are what the build can call beyond MPI-3.1, sorted:
	// "large-count", "partitioned", "sessions", "persistent-collectives",
	// "float16", "bfloat16", "cuda-aware", "mpi-abi", "ulfm", and the
	// MPIX_ calls it found ("MPIX_Query_cuda_support", "MPIX_Stream", ...).
	Features []string
}

// Has reports whether the build has feature f.
func (b Build) Has(f string) bool {
	for _, x := range b.Features {
		if x == f {
			return true
		}
	}
	return false
}

func sortFeatures(f []string) []string {
	sort.Strings(f)
	return f
}

// Library is what MPI_Get_library_version says of the library a process
// runs with, which can differ from the header it was built with: a gomb
// built with MPICH's mpicc runs with Intel MPI, MVAPICH or Cray MPICH
// (one ABI), one built for the standard ABI with any library of it.
type Library struct {
	Name    string // "Open MPI", "MPICH", "Intel MPI", "MVAPICH", "Cray MPICH", ...; "" when unknown
	Version string // the library's own version, e.g. "2021.10", "4.1.4"; "" when it gives none
	Family  string // "openmpi", "mpich", or "" (neither, or unknown)
}

// libraries are the MPI_Get_library_version strings gomb knows, most
// specific first: the derivatives before the MPICH or Open MPI they
// build on (Cray's string names MPICH, MVAPICH2's says "MVAPICH2 Version").
var libraries = []struct {
	name, family string
	re           *regexp.Regexp
}{
	{"Cray MPICH", "mpich", regexp.MustCompile(`(?i)cray mpich version ([0-9][0-9.]*[0-9])`)},
	{"Intel MPI", "mpich", regexp.MustCompile(`Intel\(R\) MPI Library ([0-9][0-9.]*[0-9](?: Update [0-9]+)?)`)},
	{"MVAPICH", "mpich", regexp.MustCompile(`MVAPICH2?(?:-[A-Za-z0-9]+)? Version\s*:?\s*([0-9][0-9A-Za-z.]*)`)},
	{"Microsoft MPI", "mpich", regexp.MustCompile(`Microsoft MPI ([0-9][0-9.]*[0-9])`)},
	{"ParaStation MPI", "mpich", regexp.MustCompile(`ParaStation MPI ([0-9][0-9.]*[0-9])`)},
	{"HPE MPT", "", regexp.MustCompile(`(?:HPE|SGI) MPT ([0-9][0-9.]*[0-9])`)},
	{"IBM Spectrum MPI", "openmpi", regexp.MustCompile(`Spectrum MPI v?([0-9][0-9.]*[0-9])`)},
	{"Fujitsu MPI", "openmpi", regexp.MustCompile(`FUJITSU MPI Library ([0-9][0-9.]*[0-9])`)},
	{"Open MPI", "openmpi", regexp.MustCompile(`Open MPI v?([0-9][0-9A-Za-z.]*)`)},
	{"MPICH", "mpich", regexp.MustCompile(`MPICH Version:?\s*([0-9][0-9A-Za-z.]*)`)},
}

// Identify reads the library's name, version and family from what
// MPI_Get_library_version returned; the zero Library when it knows none.
func Identify(libVersion string) Library {
	for _, l := range libraries {
		if m := l.re.FindStringSubmatch(libVersion); m != nil {
			return Library{Name: l.name, Version: strings.TrimRight(m[1], "."), Family: l.family}
		}
	}
	return Library{}
}

// String is the library as people name it, e.g. "Intel MPI 2021.10".
func (l Library) String() string {
	if l.Name == "" {
		return "unknown MPI"
	}
	if l.Version == "" {
		return l.Name
	}
	return l.Name + " " + l.Version
}

// mayChoose reports whether an Open MPI framework selection (an MCA
// value: "" for any, "a,b" to include, "^a,b" to exclude) lets the
// framework pick component c.
func mayChoose(selection, c string) bool {
	s := strings.TrimSpace(selection)
	if s == "" {
		return true
	}
	exclude := strings.HasPrefix(s, "^")
	listed := false
	for _, x := range strings.Split(strings.TrimPrefix(s, "^"), ",") {
		if strings.TrimSpace(x) == c {
			listed = true
		}
	}
	return listed != exclude
}
