package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
)

func versionArgs(args []string) error {
	if len(args) > 0 {
		return cli.Usage("version takes no arguments")
	}
	return nil
}

func runVersion(stdout, stderr io.Writer, args []string) error {
	if err := versionArgs(args); err != nil {
		return err
	}
	return cli.Print(stdout, func(w io.Writer) {
		fmt.Fprintf(w, "gomb %s\ngo %s %s/%s\n%s", fullVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH, session.MPIBuild())
	})
}
