package main

import (
	"io"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/bench/osu"
	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/result"
	"github.com/gomb-hpc/gomb/textfmt/imbtext"
	"github.com/gomb-hpc/gomb/textfmt/osutext"
	"github.com/gomb-hpc/gomb/textfmt/ringtext"
)

// writeSuiteText prints a stored run in its suite's own text layout.
func writeSuiteText(w io.Writer, b *result.Bundle) error {
	switch b.Run.Suite {
	case imb.Suite, imb.SuiteNBC, imb.SuiteMPI4, imb.SuiteEXT:
		return imbtext.WriteRecords(w, b)
	case osu.Suite:
		return osutext.WriteRecords(w, b)
	case ring.Suite:
		return ringtext.WriteRecords(w, b)
	}
	return cli.Usage("run %s: suite %q has no text layout (imb, imb-nbc, imb-mpi4, imb-ext, osu, ring)", b.Run.RunID, b.Run.Suite)
}
