package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/gomb-hpc/gomb/internal/mpi"
)

func runVersion(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 {
		return usageErr("version takes no arguments")
	}
	lib := mpi.Impl
	if !mpi.Available {
		lib = "none (built without cgo: analysis commands only)"
	}
	fmt.Fprintf(stdout, "gomb %s\ngo %s %s/%s\nMPI build: %s\n", fullVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH, lib)
	return nil
}
