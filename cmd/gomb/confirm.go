package main

import (
	"flag"
	"strings"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/measure/imbjob"
)

// confirmFlagNames are the flags registerConfirm registers, in help order.
var confirmFlagNames = []string{"baseline", "confirm", "tol"}

// registerConfirm registers gomb imb's -baseline, -confirm and -tol: the
// check that runs inside the measuring job.
func registerConfirm(fs *flag.FlagSet, f *imbjob.Confirm) {
	f.Tols = analysis.DefaultTolerances()
	fs.StringVar(&f.Baseline, "baseline", "", "`B` check every benchmark against baseline B (files, archive ids or a "+
		"selection, as gomb check's) as soon as it has run, and exit as gomb check does (4: a regression)")
	f.N = 2
	fs.Var(cli.Int{P: &f.N, Min: 0, Max: 10, What: "re-runs"}, "confirm", "`N` with -baseline, re-run a benchmark that tripped the baseline N more times "+
		"in the same job and decide on the median of its runs; every run is kept in the records")
	tolFlag(fs, "`[BENCH][@BAND]=LIMIT` with -baseline, a tolerance as gomb check's -tol (repeatable; default 5%)", &f.Tols)
}

// checkConfirm refuses flags that make no sense together.
func checkConfirm(f *imbjob.Confirm, set map[string]bool) error {
	switch {
	case set["baseline"] && strings.TrimSpace(f.Baseline) == "":
		// an empty variable in a CI script must not pass as a check
		return cli.Usage("-baseline is empty: give the baseline runs (files, archive ids or a selection)")
	case f.Baseline == "" && (set["confirm"] || set["tol"]):
		return cli.Usage("-confirm and -tol need -baseline")
	case f.N < 0 || f.N > 10:
		return cli.Usage("-confirm %d: want 0 to 10 re-runs", f.N)
	}
	return nil
}
