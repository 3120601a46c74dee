//go:build cgo

package mpi

// #include "gomb.h"
import "C"

import (
	"fmt"
	"strings"
	"sync"
)

var buildOnce = sync.OnceValue(func() Build {
	var v, sv C.int
	C.gomb_build_standard(&v, &sv)
	features := strings.Fields(C.GoString(C.gomb_build_features()))
	if C.gomb_persistent_collectives() != 0 {
		features = append(features, "persistent-collectives")
	}
	return Build{
		Family:   C.GoString(C.gomb_build_family()),
		Header:   C.GoString(C.gomb_build_header()),
		Standard: fmt.Sprintf("%d.%d", int(v), int(sv)),
		Features: sortFeatures(features),
	}
})

// BuildInfo is what the mpi.h this binary was compiled against says: the
// library's family and version, the standard, the features compiled in.
func BuildInfo() Build { return buildOnce() }

// Family is the MPI family this binary runs with: the mpi.h's, or for a
// standard-ABI build the library's own, from MPI_Get_library_version
// (which MPI allows before MPI_Init).
func Family() string {
	b := BuildInfo()
	if b.Family != "abi" && b.Family != "other" {
		return b.Family
	}
	if lib, err := LibraryVersion(); err == nil {
		if f := Identify(lib).Family; f != "" {
			return f
		}
	}
	return b.Family
}
